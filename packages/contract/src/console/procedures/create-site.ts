import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { ZSiteInput, ZSiteOpeningHoursInput } from '@hm/domain/locations';
import { createSite, listActiveSites, setSiteOpeningHours, toSiteBody } from '@hm/domain/locations';
import { fromFile } from '../console-fields.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { cmd, operation, perform } from '../operations.js';

/** `sites list`, GET /console/v1/sites: the marketplace's active sites, as /v1/locations lists them (where the team collects or stores a listing). */
export const listSitesOp = operation({
  action: 'sites.list',
  write: false,
  target: () => ({ type: 'site', id: '' }),
  run: async (s, _input: object) => ({ items: (await listActiveSites(cmd(s))).map(toSiteBody) }),
});

export const listSitesProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("The marketplace's active sites (showrooms and warehouses), oldest first."))
  .query(async ({ ctx, input }) => perform(listSitesOp, cliScope(ctx, await scoped(ctx, input.marketplace)), {}));

export const createSiteProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      site: fromFile(ZSiteInput, 'Site JSON: {"kind": "showroom"|"warehouse", "name", "line1", "postal_code", "city", "country", "active", "buyer_pickup", "opening_hours", "opening_hours_by_language": {"en": …, "sv": …}}.'),
    }).describe('Add a showroom or warehouse.'),
  )
  .mutation(async ({ ctx, input }) => {
    const { marketplace, em } = await scoped(ctx, input.marketplace);
    return { site: toSiteBody(await createSite(em, marketplace, input.site)) };
  });

export const setSiteOpeningHoursProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      id: z.uuid().describe('Site id.'),
      opening_hours: ZSiteOpeningHoursInput.shape.opening_hours.describe("In the marketplace's default language (the fallback); empty removes it."),
      opening_hours_by_language: ZSiteOpeningHoursInput.shape.opening_hours_by_language.describe('Per language, e.g. en="Tue–Sat 11–18",sv="tis–lör 11–18" (replaces them all; the marketplace\'s languages only).'),
    }).describe("Set a site's opening hours, in the default language and per language."),
  )
  .mutation(async ({ ctx, input }) => {
    const { marketplace, em } = await scoped(ctx, input.marketplace);
    return { site: toSiteBody(await setSiteOpeningHours(em, marketplace, input.id, input)) };
  });
