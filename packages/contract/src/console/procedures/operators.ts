import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { ZEmail } from '@hm/domain/accounts';
import type { OperatorRole } from '@hm/db/entities';
import { listOperators, removeOperator, setOperatorRole, toOperatorBody } from '@hm/domain/operators';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { ZRole, inviteOperatorOp, operation, perform } from '../operations.js';

const operatorTarget = (i: { id: string }) => ({ type: 'operator', id: i.id });

/** An admin changes a member's role; the marketplace's last admin stays admin (409 `last_admin`). */
export const setOperatorRoleOp = operation({
  action: 'operator.set_role',
  write: true,
  target: operatorTarget,
  run: async (s, input: { id: string; role: OperatorRole }) => ({ operator: toOperatorBody(await setOperatorRole(s.em, input.id, input.role)) }),
});

/** An admin removes a member: their sessions end at once; the last admin cannot be removed (409 `last_admin`). */
export const removeOperatorOp = operation({
  action: 'operator.remove',
  write: true,
  target: operatorTarget,
  run: async (s, input: { id: string }) => {
    await removeOperator(s.em, input.id);
  },
});

export const listOperatorsOp = operation({
  action: 'operators.list',
  write: false,
  target: () => ({ type: 'operator', id: '' }),
  run: async (s, _input: object) => ({ items: (await listOperators(s.em)).map(toOperatorBody) }),
});

/** `operators create`: the first operators of a marketplace (admins invite the rest from the back office). */
export const createOperatorProcedure = consoleProcedure
  .meta({ auth: 'none', cliLine: (out: unknown) => `Invitation link (valid 7 days): ${(out as { invitation_url: string }).invitation_url}` })
  .input(ZMarketplaceRef.extend({ email: ZEmail.describe('Their email address.'), role: ZRole }).describe('Invite a member of the team to the back office: they get an email with a link, valid 7 days, to set their password. Prints the link.'))
  .mutation(async ({ ctx, input }) => perform(inviteOperatorOp, cliScope(ctx, await scoped(ctx, input.marketplace)), { email: input.email, role: input.role }));

export const listOperatorsProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("The marketplace's team: every operator with role and whether two-factor codes are on."))
  .query(async ({ ctx, input }) => perform(listOperatorsOp, cliScope(ctx, await scoped(ctx, input.marketplace)), {}));

const ZOperatorId = z.uuid().describe('Operator id (`operators list`).');

export const setOperatorRoleProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend({ id: ZOperatorId, role: ZRole }).describe("Change a member's role; the marketplace's last admin cannot become a viewer."))
  .mutation(async ({ ctx, input }) => perform(setOperatorRoleOp, cliScope(ctx, await scoped(ctx, input.marketplace)), { id: input.id, role: input.role }));

export const removeOperatorProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend({ id: ZOperatorId }).describe('Remove a member of the team: their sessions end at once. The last admin cannot be removed.'))
  .mutation(async ({ ctx, input }) => perform(removeOperatorOp, cliScope(ctx, await scoped(ctx, input.marketplace)), { id: input.id }));
