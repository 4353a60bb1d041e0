import { router } from '../trpc.js';
import { getPageProcedure, listPagesProcedure, previewPageProcedure } from './procedures/pages.js';

export const pagesRouter = router({ list: listPagesProcedure, get: getPageProcedure, preview: previewPageProcedure });
