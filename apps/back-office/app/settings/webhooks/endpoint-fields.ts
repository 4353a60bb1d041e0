import type { Field } from '../../_components/form';

/** The event types an endpoint can receive (the API's list; it refuses one it does not know, at the field). */
export const EVENT_TYPES_HINT = 'Comma-separated, e.g. order.updated, payout.updated (user.created, listing.created, listing.updated, order.created, order.updated, payout.updated, message.created, page.published, page.unpublished).';

export const endpointFields = (values: { url?: string; events?: string; all?: boolean } = {}): Field[] => [
  { name: 'url', label: 'URL', required: true, defaultValue: values.url, hint: 'https:// (test mode also http:// and localhost)', inputMode: 'text' },
  { name: 'all_events', label: 'Every event type', type: 'checkbox', defaultValue: values.all ? 'on' : '' },
  { name: 'events', label: 'Event types (when not every type)', defaultValue: values.events, hint: EVENT_TYPES_HINT },
];
