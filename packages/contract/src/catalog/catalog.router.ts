import { router } from '../trpc.js';
import { getTermProcedure } from './procedures/get-term.js';
import { listCategoriesProcedure } from './procedures/list-categories.js';
import { listTermsProcedure } from './procedures/list-terms.js';

export const categoriesRouter = router({ list: listCategoriesProcedure });
export const catalogTermsRouter = router({ list: listTermsProcedure, get: getTermProcedure });
