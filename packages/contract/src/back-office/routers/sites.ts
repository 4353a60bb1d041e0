import { z } from 'zod';
import { ZSiteList } from '@hm/domain/locations';
import { router } from '../../trpc.js';
import { perform } from '../../console/operations.js';
import { listSitesOp } from '../../console/procedures/create-site.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read } from '../meta.js';

/** The marketplace's sites (`sites list` on the command line): what a listing's custody names. */
export const sites = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/sites', 'Sites', 'Sites', "The marketplace's active showrooms and warehouses, oldest first, as `GET /v1/locations` lists them: the sites a listing can be collected to or stored at. Viewers read them too.")))
    .input(z.object({}))
    .output(ZSiteList)
    .query(({ ctx }) => perform(listSitesOp, ctx.scope, {})),
});
