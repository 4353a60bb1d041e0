import { router } from '../trpc.js';
import { listLocationsProcedure } from './procedures/list-locations.js';

export const locationsRouter = router({ list: listLocationsProcedure });
