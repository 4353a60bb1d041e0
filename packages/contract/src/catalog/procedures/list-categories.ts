import { keyProcedure } from '../../trpc.js';
import { ZCategoryList, ZListCategoriesInput } from '@hm/domain/catalog';
import { listCategories } from '@hm/domain/catalog';

export const listCategoriesProcedure = keyProcedure
  .meta({
    auth: 'key',
    publicRead: true,
    openapi: {
      operationId: 'listCategories',
      method: 'GET',
      path: '/categories',
      tags: ['Catalogue'],
      summary: 'List categories',
      description: 'Every category with its parent id, depth first (parents before their children, siblings by position). Names in `locale`, falling back to the default language.',
    },
  })
  .input(ZListCategoriesInput)
  .output(ZCategoryList)
  .query(async ({ ctx, input }) => ({ items: await listCategories(ctx, input.locale) }));
