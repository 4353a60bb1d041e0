import { ConflictError, DomainError } from './errors.js';

/**
 * One mechanism for every entity with a status (in the spirit of Vendure's order state machine):
 * the entity's table of moves is data in `<entity>.machine.ts`, its consequences (jobs, emails) are
 * listed in `<entity>.effects.ts`, and `transition()` is the only code that assigns a status.
 */

/** A row's `to` when the move removes the entity instead of giving it a status (a never-on-sale draft deleted). */
export const REMOVED = '(removed)';
export type Removed = typeof REMOVED;

/** What one machine is about; every other type here is derived from it. */
export interface MachineTypes {
  entity: { status: string };
  event: string;
  actor: string;
  /** what guards, history and effects are given (entity manager, marketplace, …) */
  ctx: unknown;
  /** what an event may carry (recorded in history, read by guards) */
  data: object;
}
type Status<T extends MachineTypes> = T['entity']['status'];
type DateKeys<E> = { [K in keyof E]-?: Date extends E[K] ? K : never }[keyof E];
type NullableKeys<E> = { [K in keyof E]-?: null extends E[K] ? K : never }[keyof E];

/** One row of the table: from, event (trigger), to, who, guard (condition), and what it also sets. */
export interface Row<T extends MachineTypes> {
  from: readonly Status<T>[];
  event: T['event'];
  to: Status<T> | Removed;
  who: readonly T['actor'][];
  /** true: this row applies; false: another row of the same event may; a string: refused, and why (409) */
  guard?: (entity: T['entity'], ctx: T['ctx'], data: Partial<T['data']>) => boolean | string;
  /** fields set to the move's time (`published_at set`) */
  stamp?: readonly DateKeys<T['entity']>[];
  /** fields emptied */
  clear?: readonly NullableKeys<T['entity']>[];
  /** other fields the move sets (never the status: that is `to`) */
  set?: Partial<Omit<T['entity'], 'status'>>;
}

/** One move, as appended to an entity's history (spec: transition, from, to, actor, at, data). */
export interface Move<T extends MachineTypes> {
  transition: T['event'];
  from: Status<T>;
  to: Status<T> | Removed;
  actor: T['actor'];
  at: Date;
  data?: Partial<T['data']>;
}

export interface Machine<T extends MachineTypes> {
  /** the entity's name in refusals ("Cannot close this listing: …") */
  name: string;
  /** the status an entity is created with (the table's "(new)" row) */
  initial: Status<T>;
  rows: readonly Row<T>[];
  /** why an event is refused in the entity's current status (409) */
  refusal: (entity: T['entity'], event: T['event']) => string;
  /** appends a move to the entity's history; entities without one (listings) leave it out */
  history?: (entity: T['entity'], move: Move<T>, ctx: T['ctx']) => void | Promise<void>;
}

export type Effect<T extends MachineTypes> = (args: { entity: T['entity']; move: Move<T>; ctx: T['ctx'] }) => void | Promise<void>;
/** The consequences of each event, run in order inside the move's transaction. */
export type Effects<T extends MachineTypes> = Partial<Record<T['event'], readonly Effect<T>[]>>;

/**
 * Effects whose work belongs to another module. The machine's effects table names each slot where
 * it runs (so no caller can leave it out), and the flow that owns the cross-module sequence fills it
 * when loaded (flows/index.ts; the router, the console and the task list load it). A move reaching a
 * slot nobody filled fails, so an effect is never skipped silently.
 */
export interface EffectSlots<T extends MachineTypes, N extends string> {
  /** the slot's names, for a check that every one is filled */
  readonly names: readonly N[];
  /** the effect to list in the table: runs what was filled in, or fails */
  slot(name: N): Effect<T>;
  /** a flow's implementations (each slot filled once: a second flow filling it is a mistake) */
  fill(impls: Partial<Record<N, Effect<T>>>): void;
  /** the slots not filled yet */
  empty(): N[];
}

export function effectSlots<T extends MachineTypes, N extends string>(machine: string, names: readonly N[]): EffectSlots<T, N> {
  const filled = new Map<N, Effect<T>>();
  return {
    names,
    slot: (name) => (args) => {
      const effect = filled.get(name);
      if (!effect) throw new Error(`The ${machine} effect "${name}" has no implementation: load flows/index.ts (the router, the console and the task list do).`);
      return effect(args);
    },
    fill: (impls) => {
      for (const [name, effect] of Object.entries(impls) as [N, Effect<T>][]) {
        if (!names.includes(name)) throw new Error(`The ${machine} machine has no effect slot "${name}".`);
        if (filled.has(name) && filled.get(name) !== effect) throw new Error(`The ${machine} effect "${name}" is filled already.`);
        filled.set(name, effect);
      }
    },
    empty: () => names.filter((n) => !filled.has(n)),
  };
}

export const defineMachine = <T extends MachineTypes>(machine: Machine<T>): Machine<T> => machine;

const words = (event: string) => event.replace(/[_-]/g, ' ');

/**
 * The row `event` takes for `actor` from the entity's status, or the refusal: 403 when no row of
 * the event names the actor at all (they may never do it), 409 when it is not open from this
 * status (the row's guard may say why). Changes nothing.
 */
export function rowFor<T extends MachineTypes>(machine: Machine<T>, entity: T['entity'], event: T['event'], actor: T['actor'], ctx: T['ctx'], data: Partial<T['data']> = {}): Row<T> {
  const rows = machine.rows.filter((r) => r.event === event && r.who.includes(actor));
  if (rows.length === 0) throw new DomainError('forbidden', `The ${actor} cannot ${words(event)} this ${machine.name}.`);
  let why: string | undefined;
  for (const row of rows.filter((r) => r.from.includes(entity.status))) {
    const ok = row.guard ? row.guard(entity, ctx, data) : true;
    if (ok === true) return row;
    if (typeof ok === 'string') why ??= ok;
  }
  throw new ConflictError(why ?? machine.refusal(entity, event));
}

/** The events `actor` may take now (an order's `available_transitions` for its caller). */
export function availableEvents<T extends MachineTypes>(machine: Machine<T>, entity: T['entity'], actor: T['actor'], ctx: T['ctx'], data: Partial<T['data']> = {}): T['event'][] {
  const open = machine.rows.filter((r) => r.from.includes(entity.status) && r.who.includes(actor) && (!r.guard || r.guard(entity, ctx, data) === true));
  return [...new Set(open.map((r) => r.event))];
}

/** Machines whose guards and effects need nothing (system moves of emails, images) may leave `ctx` out. */
type CtxOption<T extends MachineTypes> = undefined extends T['ctx'] ? { ctx?: T['ctx'] } : { ctx: T['ctx'] };

export type TransitionOptions<T extends MachineTypes> = CtxOption<T> & {
  now: Date;
  data?: Partial<T['data']>;
  effects?: Effects<T>;
  /**
   * Runs once the move is allowed, before anything changes: checks the command's input against
   * the chosen row (e.g. completeness, 422) and sets the fields the event carries.
   */
  prepare?: (row: Row<T>) => void | Promise<void>;
};

/**
 * Moves an entity by its machine: finds the row (or refuses), sets the status and the row's
 * fields, appends to history, then runs the event's effects. The caller flushes (it usually owns
 * the transaction); a `REMOVED` move leaves removing the entity to the caller.
 */
export async function transition<T extends MachineTypes>(
  machine: Machine<T>,
  entity: T['entity'],
  event: T['event'],
  actor: T['actor'],
  opts: TransitionOptions<T>,
): Promise<Move<T>> {
  const row = rowFor(machine, entity, event, actor, opts.ctx, opts.data);
  await opts.prepare?.(row);
  const move: Move<T> = { transition: event, from: entity.status, to: row.to, actor, at: opts.now, ...(opts.data ? { data: opts.data } : {}) };
  const fields = entity as Record<string, unknown>;
  if (row.to !== REMOVED) fields.status = row.to;
  for (const key of row.clear ?? []) fields[key as string] = null;
  for (const key of row.stamp ?? []) fields[key as string] = opts.now;
  Object.assign(entity, row.set);
  await machine.history?.(entity, move, opts.ctx);
  for (const effect of opts.effects?.[event as T['event']] ?? []) await effect({ entity, move, ctx: opts.ctx });
  return move;
}
