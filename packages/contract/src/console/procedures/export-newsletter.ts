import { consoleProcedure } from '../../trpc.js';
import { exportSubscribers } from '@hm/domain/newsletter';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const exportNewsletterProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("The marketplace's newsletter sign-ups, oldest first, with what each sent and whether it is on the contact list yet."))
  .query(async ({ ctx, input }) => {
    const { marketplace, em } = await scoped(ctx, input.marketplace);
    return exportSubscribers(em, marketplace, ctx.contacts);
  });
