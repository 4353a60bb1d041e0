/** Entry point of the webhooks module: the events feed, webhook endpoints and their deliveries. Everything else in webhooks/ is private. */
export { fileSecretBox, keySecretBox } from './adapters/key-secret-box.js';
export { deliverWebhookTask, DISABLE_AFTER_MS, queueDeliveries, RETRY_SCHEDULE_MS } from './commands/deliver.js';
export { createEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, replayWebhook, rotateWebhookSecret, SECRET_OVERLAP_MS, updateWebhookEndpoint, webhookDeliveries } from './commands/endpoints.js';
export { readEvents } from './commands/feed.js';
export { checkTarget, isPublicAddress, type Resolve } from './send.js';
export { EVENT_EXAMPLES, EVENT_TYPES, type EventType, ZEvent, ZEventList, ZListEvents } from './webhooks.schema.js';
