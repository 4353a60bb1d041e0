import { consoleProcedure } from '../../trpc.js';
import { ZTermImport } from '@hm/domain/catalog';
import { importTerms } from '@hm/domain/catalog';
import { fromFile } from '../console-fields.js';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const importTermsProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend({ items: fromFile(ZTermImport, 'Terms JSON: [{"kind", "slug", "names": {…}, "descriptions": {…}}].') }).describe('Upsert catalogue terms by kind and slug.'))
  .mutation(async ({ ctx, input }) => {
    const { marketplace, em } = await scoped(ctx, input.marketplace);
    return importTerms(em, marketplace, input.items);
  });
