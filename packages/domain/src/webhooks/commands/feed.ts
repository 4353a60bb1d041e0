import type { KeyContext } from '../../core/context.js';
import { listEvents } from '../../core/events.queries.js';
import { toEventBody } from '../events.mapper.js';
import type { EventType } from '../webhooks.schema.js';

/** GET /v1/events: the key's marketplace's events after a sequence, oldest first. */
export async function readEvents(ctx: Pick<KeyContext, 'em'>, input: { after: number; types: EventType[]; limit: number }) {
  const rows = await listEvents(ctx.em, { after: input.after, types: input.types, limit: input.limit + 1 });
  const items = rows.slice(0, input.limit).map(toEventBody);
  return { items, next_after: items.at(-1)?.sequence ?? input.after, has_more: rows.length > input.limit };
}
