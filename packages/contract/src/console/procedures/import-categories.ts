import { consoleProcedure } from '../../trpc.js';
import { ZCategoryImport } from '@hm/domain/catalog';
import { importCategories } from '@hm/domain/catalog';
import { fromFile } from '../console-fields.js';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const importCategoriesProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({ items: fromFile(ZCategoryImport, 'Categories JSON: [{"slug", "names": {…}, "parent": "<parent slug>", "position"}].') }).describe(
      'Upsert categories by slug; parents may come in any order; loops are refused.',
    ),
  )
  .mutation(async ({ ctx, input }) => {
    const { marketplace, em } = await scoped(ctx, input.marketplace);
    return importCategories(em, marketplace, input.items);
  });
