import { router } from '../trpc.js';
import { listEvents } from './procedures/list-events.js';

/** /v1/events: the events feed. */
export const eventsRouter = router({ list: listEvents });
