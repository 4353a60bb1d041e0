import { keyProcedure } from '../../trpc.js';
import { ZListTermsInput, ZTermList } from '@hm/domain/catalog';
import { listTerms } from '@hm/domain/catalog';

export const listTermsProcedure = keyProcedure
  .meta({
    auth: 'key',
    publicRead: true,
    openapi: {
      operationId: 'listCatalogTerms',
      method: 'GET',
      path: '/catalog-terms',
      tags: ['Catalogue'],
      summary: 'List catalogue terms',
      description: 'Terms of one kind (e.g. brands) ordered by name in `locale`. `q` matches names starting with it, ignoring case and accents. Cursor paging; with `in_use=true` all terms used by listings on sale, each with `listing_count`, without paging.',
    },
  })
  .input(ZListTermsInput)
  .output(ZTermList)
  .query(({ ctx, input }) => listTerms(ctx, input));
