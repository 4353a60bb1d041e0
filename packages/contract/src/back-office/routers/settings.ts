import { z } from 'zod';
import { ZMarketplaceSettings } from '@hm/domain/marketplace';
import { router } from '../../trpc.js';
import { ZKeyKind, createKeyOp, getSettingsOp, listKeysOp, perform, revokeKeyOp, updateSettingsOp } from '../../console/operations.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read, write, ZId } from '../meta.js';
import { ZAnyObject } from '../schemas.js';

const ZApiKey = z.object({ id: z.uuid(), kind: z.enum(['secret', 'publishable']), mode: z.enum(['test', 'live']), hint: z.string(), created_at: z.string(), revoked_at: z.string().nullable() });
export const keys = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/keys', 'Settings', 'API keys', 'Hints only (`sk_test_…abcd`), never the keys; revoked ones too, oldest first.')))
    .input(z.object({}))
    .output(z.object({ items: z.array(ZApiKey) }))
    .query(({ ctx }) => perform(listKeysOp, ctx.scope, {})),
  create: operatorProcedure
    .meta(write(openapi('POST', '/keys', 'Settings', 'Create an API key', 'Admins only. `token` is the key: shown in this answer only (only its hash is kept).'), { successStatus: 201, problems: [403], requestExample: { kind: 'secret' } }))
    .input(z.strictObject({ kind: ZKeyKind }))
    .output(z.object({ key: ZApiKey, token: z.string() }))
    .mutation(({ ctx, input }) => perform(createKeyOp, ctx.scope, input)),
  revoke: operatorProcedure
    .meta(write(openapi('POST', '/keys/{id}/revoke', 'Settings', 'Revoke an API key', 'Admins only. Requests with it answer 401 from then on; 409 when it was already revoked.'), { problems: [403, 409] }))
    .input(ZId)
    .output(z.object({ key: ZApiKey }))
    .mutation(({ ctx, input }) => perform(revokeKeyOp, ctx.scope, input)),
});

export const settings = router({
  get: operatorProcedure
    .meta(read(openapi('GET', '/settings', 'Settings', 'The marketplace’s settings', 'As the command line’s `marketplace get` shows them.')))
    .input(z.object({}))
    .output(z.object({ marketplace: ZAnyObject }))
    .query(({ ctx }) => perform(getSettingsOp, ctx.scope, {})),
  update: operatorProcedure
    .meta(
      write(openapi('PATCH', '/settings', 'Settings', 'Change settings', 'Admins only. Any subset of what the command line’s `marketplace update` takes; the result is checked as a whole (every problem at once). Changing the currencies reprices in the background.'), {
        problems: [403],
        requestExample: { commission_percent: 12 },
      }),
    )
    .input(ZMarketplaceSettings)
    .output(z.object({ marketplace: ZAnyObject }))
    .mutation(({ ctx, input }) => perform(updateSettingsOp, ctx.scope, input)),
});
