import { consoleProcedure } from '../../trpc.js';
import { ZEmail } from '@hm/domain/accounts';
import { listOperators, toOperatorBody } from '@hm/domain/operators';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { ZRole, inviteOperatorOp, perform } from '../operations.js';

/** `operators create`: the first operators of a marketplace (admins invite the rest from the back office). */
export const createOperatorProcedure = consoleProcedure
  .meta({ auth: 'none', cliLine: (out: unknown) => `Invitation link (valid 7 days): ${(out as { invitation_url: string }).invitation_url}` })
  .input(ZMarketplaceRef.extend({ email: ZEmail.describe('Their email address.'), role: ZRole }).describe('Invite a member of the team to the back office: they get an email with a link, valid 7 days, to set their password. Prints the link.'))
  .mutation(async ({ ctx, input }) => perform(inviteOperatorOp, cliScope(ctx, await scoped(ctx, input.marketplace)), { email: input.email, role: input.role }));

export const listOperatorsProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("The marketplace's team: every operator with role and whether two-factor codes are on."))
  .query(async ({ ctx, input }) => ({ items: (await listOperators((await scoped(ctx, input.marketplace)).em)).map(toOperatorBody) }));
