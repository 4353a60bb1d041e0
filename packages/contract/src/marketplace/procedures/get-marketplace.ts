import { z } from 'zod';
import { keyProcedure } from '../../trpc.js';
import { ZMarketplace } from '@hm/domain/marketplace';
import { toMarketplaceBody } from '@hm/domain/marketplace';

/**
 * The answer is the marketplace's body, so its text is its version: worked out once per marketplace
 * object (the API key cache hands the same object to every request within its time), never from a
 * timestamp two updates in one millisecond could share.
 */
const versions = new WeakMap<object, string>();
function marketplaceVersion(marketplace: Parameters<typeof toMarketplaceBody>[0]): string {
  let v = versions.get(marketplace);
  if (v === undefined) versions.set(marketplace, (v = JSON.stringify(toMarketplaceBody(marketplace))));
  return v;
}

export const getMarketplace = keyProcedure
  .meta({
    auth: 'key',
    touchesNoTable: true,
    marketplaceVersion,
    openapi: { operationId: 'getMarketplace', method: 'GET', path: '/marketplace', tags: ['Marketplace'], summary: 'Get the marketplace', description: 'The marketplace the API key belongs to: currencies, languages, term kinds, listing rules and shipping table.' },
  })
  .input(z.strictObject({}))
  .output(ZMarketplace)
  .query(({ ctx }) => toMarketplaceBody(ctx.marketplace));
