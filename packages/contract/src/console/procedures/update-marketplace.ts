import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceSettings } from '@hm/domain/marketplace';
import { fromFile } from '../console-fields.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { perform, updateSettingsOp } from '../operations.js';

export const updateMarketplaceProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      settings: fromFile(ZMarketplaceSettings, 'Settings JSON: any subset of currencies, locales, term_kinds, listings, shipping, name, commission_percent, storefront_url, newsletter_audience_id, abuse_limits, payout_service_agreement, alert_email.'),
    }).describe('Change marketplace settings; the result is checked as a whole.'),
  )
  .mutation(async ({ ctx, input }) => perform(updateSettingsOp, cliScope(ctx, await scoped(ctx, input.marketplace)), input.settings));
