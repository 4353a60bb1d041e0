import { z } from 'zod';
import { listAudit, toAuditBody } from '@hm/domain/operators';
import { router } from '../../trpc.js';
import { ZRole, inviteOperatorOp, perform } from '../../console/operations.js';
import { listOperatorsOp, removeOperatorOp, setOperatorRoleOp } from '../../console/procedures/operators.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read, write, ZId } from '../meta.js';
import { ZAuditEntry, ZOperator, ZPage, ZPaging } from '../schemas.js';

export const operators = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/operators', 'Team', 'The team', 'Every operator of the marketplace, oldest first, with role, two-factor codes and pending invitations.')))
    .input(z.object({}))
    .output(z.object({ items: z.array(ZOperator) }))
    .query(({ ctx }) => perform(listOperatorsOp, ctx.scope, {})),
  invite: operatorProcedure
    .meta(write(openapi('POST', '/operators', 'Team', 'Invite', 'Admins only. The address gets an email with a link, valid 7 days, to set a password. 409 `email_in_use` for a member of the team.'), { successStatus: 201, problems: [403, 409], requestExample: { email: 'sam@example.com', role: 'viewer' } }))
    .input(z.strictObject({ email: z.email('Must be an email address.').max(254), role: ZRole }))
    .output(z.object({ operator: ZOperator, invitation: z.object({ expires_at: z.string() }) }))
    .mutation(async ({ ctx, input }) => {
      const { operator, invitation } = await perform(inviteOperatorOp, ctx.scope, input);
      return { operator, invitation }; // the link goes to the invitee only (the command line prints it for the first operators)
    }),
  setRole: operatorProcedure
    .meta(
      write(openapi('PATCH', '/operators/{id}', 'Team', 'Change a role', "Admins only. `admin` or `viewer`; the change applies to the operator's next request. The marketplace's last admin cannot become a viewer: 409 `last_admin`."), {
        problems: [409],
        requestExample: { role: 'viewer' },
      }),
    )
    .input(z.strictObject({ id: z.uuid(), role: ZRole }))
    .output(z.object({ operator: ZOperator }))
    .mutation(({ ctx, input }) => perform(setOperatorRoleOp, ctx.scope, input)),
  remove: operatorProcedure
    .meta(write(openapi('DELETE', '/operators/{id}', 'Team', 'Remove from the team', 'Admins only. The operator and their invitation go and their sessions end at once (401 from then on); the audit trail keeps their rows. The last admin cannot be removed: 409 `last_admin`.'), { successStatus: 204, problems: [409] }))
    .input(ZId)
    .output(z.void())
    .mutation(({ ctx, input }) => perform(removeOperatorOp, ctx.scope, input)),
});

export const auditRouter = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/audit', 'Team', 'Audit trail', 'Every console write and sign-in (success and failure), newest first. Filters: `operator` (id), `action`, `target_type`, `target_id`, `from`/`to` (ISO times, `to` exclusive).')))
    .input(
      z.strictObject({
        ...ZPaging,
        operator: z.uuid().optional(),
        action: z.string().max(100).optional(),
        target_type: z.string().max(50).optional(),
        target_id: z.string().max(254).optional(),
        from: z.iso.datetime().optional(),
        to: z.iso.datetime().optional(),
      }),
    )
    .output(ZPage(ZAuditEntry))
    .query(async ({ ctx, input }) => {
      const page = await listAudit(ctx.scope.em, ctx.scope.marketplace.id, input);
      return { items: page.items.map(toAuditBody), ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}) };
    }),
});
