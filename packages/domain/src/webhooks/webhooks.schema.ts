import { z } from 'zod';
import { ZDateTime } from '../core/schemas.js';

/** The event types the service appends (docs: Events). A webhook endpoint subscribes to some of them, or `*`. */
export const EVENT_TYPES = [
  'user.created',
  'listing.created',
  'listing.updated',
  'order.created',
  'order.updated',
  'payout.updated',
  'message.created',
  'page.published',
  'page.unpublished',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const ZEvent = z
  .object({
    id: z.string().meta({ description: 'Event id (`evt_…`); a webhook carries it as `webhook-id`: dedupe by it.' }),
    type: z.enum(EVENT_TYPES),
    sequence: z.number().int().min(1).meta({ description: "Increases by one per event of the marketplace, in commit order, with no gaps: pass the last one seen as `after`." }),
    created_at: ZDateTime,
    data: z.object({
      object: z.record(z.string(), z.unknown()).meta({ description: 'The resource as /v1 shows it to its owner after the change.' }),
      previous_attributes: z.record(z.string(), z.unknown()).optional().meta({ description: "Updates: the changed fields' previous values." }),
    }),
  })
  .meta({ id: 'Event' });

export const ZEventList = z
  .object({
    items: z.array(ZEvent),
    next_after: z.number().int().min(0).meta({ description: 'Pass as `after` for the next page (the last item’s sequence; unchanged when there were none).' }),
    has_more: z.boolean().meta({ description: 'More events are there already: ask again at once.' }),
  })
  .meta({ id: 'EventList' });

/** `types=order.updated,payout.updated`: comma-separated, each a known type (unknown ones are a 422). */
const ZTypes = z
  .string()
  .max(500)
  .optional()
  .transform((s, ctx) => {
    const types = (s ?? '').split(',').map((t) => t.trim()).filter(Boolean);
    const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
    if (unknown.length) ctx.addIssue({ code: 'custom', message: `Unknown event type${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. One of: ${EVENT_TYPES.join(', ')}.` });
    return types as EventType[];
  })
  .meta({ description: `Only these types, comma-separated (${EVENT_TYPES.join(', ')}).` });

export const ZListEvents = z.strictObject({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0).meta({ description: 'Events after this sequence (0: from the oldest kept, 30 days).' }),
  types: ZTypes,
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

const at = '2026-11-28T10:15:00.000Z';
const order = (state: string) => ({
  id: '0193b2c4-7f10-7c2e-9a41-3f5d2e8b1a20', listing_id: '0193b2c4-5a00-7d11-8b02-1c2d3e4f5a6b', buyer_id: '0193b2c4-1111-7aaa-8bbb-0123456789ab', seller_id: '0193b2c4-2222-7aaa-8bbb-0123456789ab',
  state, state_entered_at: at, quantity: 1, currency: 'EUR', total: 12900, line_items: [{ kind: 'item', description: 'Oak chair', amount: 12900 }], delivery: { method: 'shipping' }, available_transitions: [], history: [], created_at: at,
});
const listing = (status: string) => ({ id: '0193b2c4-5a00-7d11-8b02-1c2d3e4f5a6b', seller_id: '0193b2c4-2222-7aaa-8bbb-0123456789ab', status, title: 'Oak chair', price: { amount: 12900, currency: 'EUR' }, created_at: at, updated_at: at });
const event = (sequence: number, type: EventType, object: Record<string, unknown>, previous?: Record<string, unknown>) => ({
  id: `evt_0193b2c47f107c2e9a41${String(sequence).padStart(12, '0')}`, type, sequence, created_at: at, data: { object, ...(previous ? { previous_attributes: previous } : {}) },
});

/** One example per type, for the OpenAPI document (the feed's examples) and the README. */
export const EVENT_EXAMPLES: Record<EventType, z.output<typeof ZEvent>> = {
  'user.created': event(1, 'user.created', { id: '0193b2c4-1111-7aaa-8bbb-0123456789ab', email: 'alice@example.com', email_verified: false, first_name: 'Alice', last_name: '', display_name: '', bio: '', phone: '', has_password: true, locale: 'en', created_at: at }),
  'listing.created': event(2, 'listing.created', listing('draft')),
  'listing.updated': event(3, 'listing.updated', listing('published'), { status: 'draft' }),
  'order.created': event(4, 'order.created', order('pending_payment')),
  'order.updated': event(5, 'order.updated', order('purchased'), { state: 'pending_payment' }),
  'payout.updated': event(6, 'payout.updated', { order_id: '0193b2c4-7f10-7c2e-9a41-3f5d2e8b1a20', subtotal: 12900, commission: 1935, storage_fee: 0, storage_months: 0, amount: 10965, currency: 'EUR', status: 'paid' }, { status: 'pending' }),
  'message.created': event(7, 'message.created', { id: 42, body: 'Is it still available?', at, from_marketplace: false, sender_id: '0193b2c4-1111-7aaa-8bbb-0123456789ab', conversation_id: '0193b2c4-9999-7aaa-8bbb-0123456789ab' }),
  'page.published': event(8, 'page.published', { slug: 'about', locale: 'en', published_at: at }),
  'page.unpublished': event(9, 'page.unpublished', { slug: 'about', locale: 'en' }, { published_at: at }),
};
