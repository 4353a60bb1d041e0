import { crossTenantEm } from '@hm/db/orm';
import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { revokeApiKey, toApiKeyBody } from '@hm/domain/api-keys';

export const revokeKeyProcedure = consoleProcedure
  .input(z.strictObject({ key: z.string().min(1).max(200).describe('The key itself, or its id.') }).describe('Revoke an API key; requests with it answer 401 from then on.'))
  .mutation(async ({ ctx, input }) => ({ key: toApiKeyBody(await revokeApiKey(crossTenantEm(ctx.orm), input.key, ctx.clock.now())) }));
