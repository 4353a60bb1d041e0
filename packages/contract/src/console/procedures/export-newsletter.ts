import { consoleProcedure } from '../../trpc.js';
import { exportSubscribers } from '@hm/domain/newsletter';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { operation, perform } from '../operations.js';

/** `newsletter export`, and the back office's CSV download of the same rows (GET /console/v1/newsletter/subscribers.csv). */
export const exportNewsletterOp = operation({
  action: 'newsletter.export',
  write: false,
  target: () => ({ type: 'newsletter', id: '' }),
  run: (s, _input: object) => exportSubscribers(s.em, s.marketplace, s.ctx.contacts),
});

export const exportNewsletterProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("The marketplace's newsletter sign-ups, oldest first, with what each sent and whether it is on the contact list yet."))
  .query(async ({ ctx, input }) => perform(exportNewsletterOp, cliScope(ctx, await scoped(ctx, input.marketplace)), {}));
