import { z } from 'zod';
import { MarketplaceSchema } from '@hm/db/entities';
import { tenantEm } from '@hm/db/orm';
import type { Context } from '../context.js';
import { consoleProcedure, createCallerFactory, router } from '../trpc.js';
import { ZSlug } from '../shared/schemas.js';
import { ZMarketplaceSettings } from '../marketplace/marketplace.schema.js';
import { ZCreateMarketplace, createMarketplace, findMarketplaceBySlug, updateMarketplace } from '../marketplace/commands/save-marketplace.js';
import { toMarketplaceConsoleBody } from '../marketplace/marketplace.mapper.js';
import { createApiKey, listApiKeys, revokeApiKey, toApiKeyBody } from '../api-keys/commands/manage-api-keys.js';
import { ZCategoryImport, ZTermImport } from '../catalog/catalog-import.schema.js';
import { importCategories, importTerms } from '../catalog/commands/import-catalog.js';
import { ZSiteInput } from '../sites/sites.schema.js';
import { createSite, toSiteBody } from '../sites/commands/sites.js';
import { ZSetRates, setRates, toRateBody } from '../rates/commands/set-rates.js';
import { ZTeamUserInput } from '../accounts/accounts.schema.js';
import { createUserByTeam, setUserBlocked } from '../accounts/commands/users.js';
import { toUserBody } from '../accounts/user.mapper.js';
import { ListingSchema, MarketplaceSchema as MarketplaceEntity, type Listing } from '@hm/db/entities';
import { NotFoundError } from '../errors.js';
import { ZPriceScheduleInput } from '../listings/listing.schema.js';
import { loadRelations, toListingBody } from '../listings/listing.mapper.js';
import { approveListing, denyListing, offerForListing, setCommission, setCustody, setShippingSize } from '../listings/commands/review-listing.js';

/**
 * Operator console: outside the public contract (never mounted on /v1). The CLI calls these
 * in-process through a caller; input errors come back as the same problems as on the API.
 */

const ZMarketplaceRef = z.strictObject({ marketplace: ZSlug });

/** The marketplace named by slug and an entity manager scoped to it. */
async function scoped(ctx: Context, slug: string) {
  const marketplace = await findMarketplaceBySlug(ctx.orm.em.fork(), slug);
  return { marketplace, em: tenantEm(ctx.orm, marketplace.id) };
}

/** The listing's marketplace, found from the listing id alone (operators pass ids). */
async function byListing(ctx: Context, id: string) {
  const found = await ctx.orm.em.fork().findOne(ListingSchema, { id }, { filters: false });
  if (!found) throw new NotFoundError('This listing');
  const marketplace = await ctx.orm.em.fork().findOneOrFail(MarketplaceEntity, { id: found.marketplaceId });
  const em = tenantEm(ctx.orm, marketplace.id);
  return { marketplace, em, cmd: { em, marketplace, clock: ctx.clock } };
}

/** The console's view of a listing: the public body plus the commission override. */
async function consoleListing(ctx: Context, em: ReturnType<typeof tenantEm>, marketplace: Parameters<typeof toListingBody>[2]['marketplace'], l: Listing) {
  const body = toListingBody(l, await loadRelations(em, [l]), { marketplace, publicUrl: ctx.publicUrl, single: true });
  return { listing: { ...body, ...(l.commissionPercent !== null && l.commissionPercent !== undefined ? { commission_percent: l.commissionPercent } : {}) } };
}

const ZListingId = z.strictObject({ id: z.uuid() });

export const consoleRouter = router({
  marketplace: router({
    create: consoleProcedure.input(ZCreateMarketplace).mutation(async ({ ctx, input }) => {
      const em = ctx.orm.em.fork();
      return em.transactional(async (tx) => {
        const marketplace = await createMarketplace(tx, input);
        const secret = createApiKey(tx, marketplace.id, 'secret', ctx.mode);
        const publishable = createApiKey(tx, marketplace.id, 'publishable', ctx.mode);
        await tx.flush();
        return { marketplace: toMarketplaceConsoleBody(marketplace), keys: { secret: secret.token, publishable: publishable.token } };
      });
    }),
    update: consoleProcedure.input(ZMarketplaceRef.extend({ settings: ZMarketplaceSettings })).mutation(async ({ ctx, input }) => {
      const em = ctx.orm.em.fork();
      const m = await findMarketplaceBySlug(em, input.marketplace);
      const updated = await updateMarketplace(em, m, input.settings);
      return { marketplace: toMarketplaceConsoleBody(updated) };
    }),
    get: consoleProcedure.input(ZMarketplaceRef).query(async ({ ctx, input }) => ({
      marketplace: toMarketplaceConsoleBody(await findMarketplaceBySlug(ctx.orm.em.fork(), input.marketplace)),
    })),
    list: consoleProcedure.input(z.strictObject({})).query(async ({ ctx }) => ({
      items: (await ctx.orm.em.fork().find(MarketplaceSchema, {}, { orderBy: { createdAt: 'asc' } })).map(toMarketplaceConsoleBody),
    })),
  }),
  keys: router({
    create: consoleProcedure.input(ZMarketplaceRef.extend({ kind: z.enum(['secret', 'publishable']) })).mutation(async ({ ctx, input }) => {
      const { marketplace, em } = await scoped(ctx, input.marketplace);
      const { key, token } = createApiKey(em, marketplace.id, input.kind, ctx.mode);
      await em.flush();
      return { key: toApiKeyBody(key), token };
    }),
    list: consoleProcedure.input(ZMarketplaceRef).query(async ({ ctx, input }) => {
      const { em } = await scoped(ctx, input.marketplace);
      return { items: (await listApiKeys(em)).map(toApiKeyBody) };
    }),
    revoke: consoleProcedure.input(z.strictObject({ key: z.string().min(1).max(200) })).mutation(async ({ ctx, input }) => ({
      key: toApiKeyBody(await revokeApiKey(ctx.orm.em.fork(), input.key, ctx.clock.now())),
    })),
  }),
  categories: router({
    import: consoleProcedure.input(ZMarketplaceRef.extend({ items: ZCategoryImport })).mutation(async ({ ctx, input }) => {
      const { marketplace, em } = await scoped(ctx, input.marketplace);
      return importCategories(em, marketplace, input.items);
    }),
  }),
  terms: router({
    import: consoleProcedure.input(ZMarketplaceRef.extend({ items: ZTermImport })).mutation(async ({ ctx, input }) => {
      const { marketplace, em } = await scoped(ctx, input.marketplace);
      return importTerms(em, marketplace, input.items);
    }),
  }),
  sites: router({
    create: consoleProcedure.input(ZMarketplaceRef.extend({ site: ZSiteInput })).mutation(async ({ ctx, input }) => {
      const { marketplace, em } = await scoped(ctx, input.marketplace);
      return { site: toSiteBody(await createSite(em, marketplace.id, input.site)) };
    }),
  }),
  users: router({
    create: consoleProcedure.input(ZMarketplaceRef.extend(ZTeamUserInput.shape)).mutation(async ({ ctx, input }) => {
      const { marketplace: slug, ...fields } = input;
      const { marketplace, em } = await scoped(ctx, slug);
      return { user: toUserBody(await createUserByTeam({ em, marketplace, clock: ctx.clock }, fields)) };
    }),
    block: consoleProcedure.input(ZMarketplaceRef.extend({ email: z.string().min(1).max(254) })).mutation(async ({ ctx, input }) => {
      const { marketplace, em } = await scoped(ctx, input.marketplace);
      return { user: { ...toUserBody(await setUserBlocked({ em, marketplace, clock: ctx.clock }, input.email, true)), blocked: true } };
    }),
    unblock: consoleProcedure.input(ZMarketplaceRef.extend({ email: z.string().min(1).max(254) })).mutation(async ({ ctx, input }) => {
      const { marketplace, em } = await scoped(ctx, input.marketplace);
      return { user: { ...toUserBody(await setUserBlocked({ em, marketplace, clock: ctx.clock }, input.email, false)), blocked: false } };
    }),
  }),
  listings: router({
    get: consoleProcedure.input(ZListingId).query(async ({ ctx, input }) => {
      const { marketplace, em } = await byListing(ctx, input.id);
      return consoleListing(ctx, em, marketplace, await em.findOneOrFail(ListingSchema, { id: input.id }));
    }),
    approve: consoleProcedure.input(ZListingId).mutation(async ({ ctx, input }) => {
      const { marketplace, em, cmd } = await byListing(ctx, input.id);
      return consoleListing(ctx, em, marketplace, await approveListing(cmd, input.id));
    }),
    deny: consoleProcedure.input(ZListingId.extend({ note: z.string().min(1).max(2000) })).mutation(async ({ ctx, input }) => {
      const { marketplace, em, cmd } = await byListing(ctx, input.id);
      return consoleListing(ctx, em, marketplace, await denyListing(cmd, input.id, input.note));
    }),
    offer: consoleProcedure
      .input(ZListingId.extend({ amount: z.number().int().min(1), currency: z.string().length(3), note: z.string().max(2000).default(''), schedule: ZPriceScheduleInput.optional() }))
      .mutation(async ({ ctx, input }) => {
        const { marketplace, em, cmd } = await byListing(ctx, input.id);
        return consoleListing(ctx, em, marketplace, await offerForListing(cmd, input.id, input));
      }),
    setShippingSize: consoleProcedure.input(ZListingId.extend({ size: z.string().max(40) })).mutation(async ({ ctx, input }) => {
      const { marketplace, em, cmd } = await byListing(ctx, input.id);
      return consoleListing(ctx, em, marketplace, await setShippingSize(cmd, input.id, input.size));
    }),
    setCommission: consoleProcedure.input(ZListingId.extend({ percent: z.number().min(0).max(100).nullable() })).mutation(async ({ ctx, input }) => {
      const { marketplace, em, cmd } = await byListing(ctx, input.id);
      return consoleListing(ctx, em, marketplace, await setCommission(cmd, input.id, input.percent));
    }),
    custody: consoleProcedure
      .input(ZListingId.extend({ custody: z.enum(['seller', 'collecting', 'stored']), site: z.uuid().optional() }))
      .mutation(async ({ ctx, input }) => {
        const { marketplace, em, cmd } = await byListing(ctx, input.id);
        return consoleListing(ctx, em, marketplace, await setCustody(cmd, input.id, input.custody, input.site));
      }),
  }),
  rates: router({
    set: consoleProcedure.input(ZMarketplaceRef.extend(ZSetRates.shape)).mutation(async ({ ctx, input }) => {
      const { marketplace, em } = await scoped(ctx, input.marketplace);
      const { marketplace: _slug, ...rates } = input;
      return { items: (await setRates(em, marketplace.id, rates)).map(toRateBody) }; // queues the reprice
    }),
  }),
});

export type ConsoleRouter = typeof consoleRouter;

const createCaller = createCallerFactory(consoleRouter);
/** The console's in-process client (CLI, start-up seeding, tests). */
export function consoleCaller(ctx: Context) {
  return createCaller(ctx);
}
