import { keyProcedure } from '../../trpc.js';
import { ZGetTermInput, ZTerm } from '@hm/domain/catalog';
import { getTerm } from '@hm/domain/catalog';

export const getTermProcedure = keyProcedure
  .meta({
    auth: 'key',
    publicRead: true,
    openapi: { operationId: 'getCatalogTerm', method: 'GET', path: '/catalog-terms/{kind}/{slug}', tags: ['Catalogue'], summary: 'Get a catalogue term', description: 'One term by kind and slug, with its name and description in `locale`.' },
  })
  .input(ZGetTermInput)
  .output(ZTerm)
  .query(({ ctx, input }) => getTerm(ctx, input.kind, input.slug, input.locale));
