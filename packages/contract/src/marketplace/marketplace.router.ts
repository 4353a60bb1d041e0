import { router } from '../trpc.js';
import { getMarketplace } from './procedures/get-marketplace.js';

export const marketplaceRouter = router({ get: getMarketplace });
