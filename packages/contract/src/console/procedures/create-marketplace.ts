import { crossTenantEm } from '@hm/db/orm';
import { consoleProcedure } from '../../trpc.js';
import { ZCreateMarketplace, createMarketplace } from '@hm/domain/marketplace';
import { toMarketplaceConsoleBody } from '@hm/domain/marketplace';
import { createApiKey } from '@hm/domain/api-keys';

/** A marketplace with its first secret and publishable keys (the tokens are shown this once). */
export const createMarketplaceProcedure = consoleProcedure
  .input(ZCreateMarketplace.describe('Create a marketplace and its first secret and publishable keys (shown once).'))
  .mutation(async ({ ctx, input }) =>
    crossTenantEm(ctx.orm).transactional(async (tx) => {
      const marketplace = await createMarketplace(tx, input);
      const secret = createApiKey(tx, marketplace.id, 'secret', ctx.mode);
      const publishable = createApiKey(tx, marketplace.id, 'publishable', ctx.mode);
      await tx.flush();
      return { marketplace: toMarketplaceConsoleBody(marketplace), keys: { secret: secret.token, publishable: publishable.token } };
    }),
  );
