import type { z } from 'zod';
import type { EventRow } from '../core/events.queries.js';
import type { ZEvent } from './webhooks.schema.js';

/** The one place an event row becomes the body the feed lists and a webhook POSTs. */
export function toEventBody(e: EventRow): z.output<typeof ZEvent> {
  return { id: e.id, type: e.type as z.output<typeof ZEvent>['type'], sequence: Number(e.sequence), created_at: new Date(e.created_at).toISOString(), data: e.data };
}
