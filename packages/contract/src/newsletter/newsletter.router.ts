import { router } from '../trpc.js';
import { subscribe } from './procedures/subscribe.js';

export const newsletterRouter = router({ subscribers: router({ create: subscribe }) });
