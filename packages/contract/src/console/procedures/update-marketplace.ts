import { crossTenantEm } from '@hm/db/orm';
import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceSettings } from '@hm/domain/marketplace';
import { findMarketplaceBySlug, updateMarketplace } from '@hm/domain/marketplace';
import { toMarketplaceConsoleBody } from '@hm/domain/marketplace';
import { fromFile } from '../console-fields.js';
import { ZMarketplaceRef } from '../console-scope.js';

export const updateMarketplaceProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      settings: fromFile(ZMarketplaceSettings, 'Settings JSON: any subset of currencies, locales, term_kinds, listings, shipping, name, commission_percent, storefront_url, newsletter_audience_id, abuse_limits, payout_service_agreement, alert_email.'),
    }).describe('Change marketplace settings; the result is checked as a whole.'),
  )
  .mutation(async ({ ctx, input }) => {
    const em = crossTenantEm(ctx.orm);
    const m = await findMarketplaceBySlug(em, input.marketplace);
    const updated = await updateMarketplace(em, m, input.settings); // queues a reprice when the currencies change
    return { marketplace: toMarketplaceConsoleBody(updated) };
  });
