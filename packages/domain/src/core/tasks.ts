import { z } from 'zod';
import type { MikroORM } from '@hm/db/orm';
import type { ApiMode } from './context.js';
import type { Ports } from './ports/index.js';

/** What every task may use, wherever it runs: in the worker, or in the API (timers test helper). */
export interface TaskContext extends Ports {
  orm: MikroORM;
  mode: ApiMode;
}

/** What only the worker has; tasks that need it cannot be timers. */
export interface WorkerContext extends TaskContext {
  /** sender address of emails (MAIL_FROM) */
  mailFrom: string;
  /** this run's attempt (1-based) and the job's maximum */
  attempt: { number: number; max: number };
}

/**
 * One background task (a graphile-worker job), declared once beside the command it runs. The
 * worker's task list, the timers test helper and `addJob` are all derived from these objects, so
 * a task's name and payload exist in one place.
 */
export interface TaskDefinition<S extends z.ZodType = z.ZodType, C extends TaskContext = WorkerContext> {
  readonly name: string;
  /** the job's payload: ids only (the task re-reads the entity), parsed before `run` */
  readonly payload: S;
  /** a timer: `POST /v1/test-helpers/timers/advance` may run it early, inside the API */
  readonly timer: boolean;
  /** default for `addJob` (graphile-worker's own default is 25) */
  readonly maxAttempts?: number;
  /**
   * graphile-worker takes due jobs lowest priority first (default 0): bulk work that comes in bursts
   * (`BULK_PRIORITY`) never queues ahead of emails, payments and timers.
   */
  readonly priority?: number;
  /** Does the work and says what happened (the log line; the timers helper's `result`). Safe to run twice or late. */
  run(payload: z.output<S>, ctx: C): Promise<string>;
}

/** The priority of bulk background work (photo sizes): after every job of the default priority that is due. */
export const BULK_PRIORITY = 10;

interface Spec<S extends z.ZodType, C extends TaskContext> {
  name: string;
  payload: S;
  maxAttempts?: number;
  priority?: number;
  run(payload: z.output<S>, ctx: C): Promise<string>;
}

/** Timers run in the API too, so they get only `TaskContext`, and say whose they are (`marketplace_id`). */
export function defineTask<S extends z.ZodType<{ marketplace_id: string }>>(spec: Spec<S, TaskContext> & { timer: true }): TaskDefinition<S, TaskContext>;
export function defineTask<S extends z.ZodType>(spec: Spec<S, WorkerContext> & { timer?: false }): TaskDefinition<S, WorkerContext>;
export function defineTask(spec: Spec<z.ZodType, WorkerContext> & { timer?: boolean }): TaskDefinition {
  return { ...spec, timer: spec.timer ?? false };
}

export type TaskRun = { ok: true; payload: unknown; outcome: string } | { ok: false; problem: string };

/**
 * Parses a stored payload with the task's schema, then runs it. A payload that does not parse can
 * never succeed, so it is reported (`ok: false`) instead of thrown: callers drop such a job rather
 * than retry it. Errors of `run` itself are thrown (the worker retries them with backoff).
 */
export async function runTask<C extends TaskContext>(task: TaskDefinition<z.ZodType, C>, payload: unknown, ctx: C): Promise<TaskRun> {
  const parsed = task.payload.safeParse(payload ?? {});
  if (!parsed.success) return { ok: false, problem: `payload ${JSON.stringify(payload)} does not match the task: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}` };
  return { ok: true, payload: parsed.data, outcome: await task.run(parsed.data, ctx) };
}
