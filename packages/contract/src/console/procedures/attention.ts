import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { perform } from '../operations.js';
import { ZAttention, attentionOp } from '../attention.js';

/** `attention`: what waits for the team, queue by queue (the back office's home page). */
export const attentionProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend(ZAttention).describe(
      'What waits for the team: listings pending approval, valuation requests, storage collections to book, orders disputed / paid and not sent / with a chargeback, payouts held or failed, unanswered support conversations, webhook endpoints failing or disabled — each with its count and first items.',
    ),
  )
  .query(async ({ ctx, input }) => perform(attentionOp, cliScope(ctx, await scoped(ctx, input.marketplace)), input));
