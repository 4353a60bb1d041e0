import { z } from 'zod';
import { crossTenantEm, uuidv7, type EntityManager } from '@hm/db/orm';
import { tenantOf } from '@hm/db/tenancy';
import { insertEvent, purgeEventsBefore, type EventRow } from './events.queries.js';
import { defineTask } from './tasks.js';

/**
 * Events: every state change the service makes appends one, in the change's own transaction (an
 * outbox: none for a rolled-back change, none lost after a commit). The modules append their own
 * kinds in one place each (a machine's effects table, or the one command that creates the thing);
 * `object` is the resource as /v1 shows it to its owner, made by the module's own mapper. What
 * happens next (webhook deliveries) subscribes here, so no module knows about webhooks.
 */

export type EventObject = Record<string, unknown>;
export interface NewEvent {
  type: string;
  object: EventObject;
  /** for updates: the changed fields' previous values */
  previous?: Record<string, unknown>;
  at: Date;
}

/** Runs in the appending transaction when the event is appended (webhook deliveries are queued here). */
export type EventSubscriber = (em: EntityManager, marketplaceId: string, event: AppendedEvent) => Promise<void>;
const subscribers: EventSubscriber[] = [];

/** An event appended in a transaction; its `sequence` is drawn when the transaction commits. */
export interface AppendedEvent {
  id: string;
  type: string;
  data: EventRow['data'];
  created_at: Date;
}

/** A flow subscribes once, when loaded (flows/events.ts). */
export function onEventAppended(subscriber: EventSubscriber): void {
  if (!subscribers.includes(subscriber)) subscribers.push(subscriber);
}

export const newEventId = () => `evt_${uuidv7().replaceAll('-', '')}`;

/**
 * The events of each open transaction, written with their sequences just before it commits: the
 * counter's row lock (held to commit, for commit-ordered gapless sequences) is then the last lock a
 * transaction takes, so a writer holding it never waits for anything and no deadlock can include it.
 * A transaction that rolls back drops its list with it.
 */
const pending = new WeakMap<object, { em: EntityManager; events: AppendedEvent[] }>();
const watched = new WeakSet<object>();

function watchCommits(em: EntityManager): void {
  const manager = em.getEventManager();
  if (watched.has(manager)) return;
  watched.add(manager);
  manager.registerSubscriber({
    async beforeTransactionCommit({ transaction }) {
      const list = transaction && pending.get(transaction);
      if (!list) return;
      pending.delete(transaction);
      for (const e of list.events) await insertEvent(list.em, { id: e.id, type: e.type, data: e.data, at: e.created_at });
    },
  });
}

/** Appends an event in the caller's transaction (an entity manager inside `transactional`) and tells the subscribers. */
export async function appendEvent(em: EntityManager, e: NewEvent): Promise<AppendedEvent> {
  const transaction = em.getTransactionContext();
  if (!transaction) throw new Error(`appendEvent(${e.type}) needs a transaction: the event is written with the change or not at all.`);
  watchCommits(em);
  const previous = e.previous && Object.keys(e.previous).length ? { previous_attributes: e.previous } : {};
  const event: AppendedEvent = { id: newEventId(), type: e.type, data: { object: e.object, ...previous }, created_at: e.at };
  const list = pending.get(transaction) ?? { em, events: [] };
  list.events.push(event);
  pending.set(transaction, list);
  for (const subscriber of subscribers) await subscriber(em, tenantOf(em)!, event);
  return event;
}

/**
 * The top-level fields of `before` whose value differs in `after` (an edit's `previous_attributes`),
 * compared by their JSON; `updated_at` is left out (it changes with every edit).
 */
export function changedFrom(before: EventObject, after: EventObject): Record<string, unknown> {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  keys.delete('updated_at');
  const previous: Record<string, unknown> = {};
  for (const k of keys) if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) previous[k] = before[k] ?? null;
  return previous;
}

/**
 * Where images are served, for objects whose body links them (listings): the API's public URL,
 * set once per process by the composition root (API, worker, console) before any event is appended.
 */
let publicUrl = 'http://localhost:4000';
export function setEventPublicUrl(url: string): void {
  publicUrl = url;
}
export const eventPublicUrl = () => publicUrl;

/** Events are kept this long (then the daily purge removes them). */
export const EVENT_RETENTION_DAYS = 30;

export const purgeEventsTask = defineTask({
  name: 'purge-events',
  payload: z.object({}),
  run: async (_p, ctx) => {
    const before = new Date(ctx.clock.now().getTime() - EVENT_RETENTION_DAYS * 24 * 3600 * 1000);
    return `purged ${await purgeEventsBefore(crossTenantEm(ctx.orm), before)} events older than ${EVENT_RETENTION_DAYS} days`;
  },
});
