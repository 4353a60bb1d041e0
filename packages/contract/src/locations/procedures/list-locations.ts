import { z } from 'zod';
import { keyProcedure } from '../../trpc.js';
import { listActiveSites, toSiteBody } from '@hm/domain/locations';
import { ZSiteList } from '@hm/domain/locations';

export const listLocationsProcedure = keyProcedure
  .meta({
    auth: 'key',
    publicRead: true,
    openapi: { operationId: 'listLocations', method: 'GET', path: '/locations', tags: ['Marketplace'], summary: 'List locations', description: "The marketplace's active sites: showrooms and warehouses." },
  })
  .input(z.strictObject({}))
  .output(ZSiteList)
  .query(async ({ ctx }) => ({ items: (await listActiveSites(ctx)).map(toSiteBody) }));
