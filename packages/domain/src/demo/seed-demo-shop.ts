import { setTimeout as sleep } from 'node:timers/promises';
import { ListingSchema, type Listing } from '@hm/db/entities';
import { crossTenantEm, tenantEm, type MikroORM } from '@hm/db/orm';
import type { Ports } from '../core/context.js';
import { importTerms } from '../catalog/index.js';
import { findMarketplaceBySlug } from '../marketplace/index.js';
import { DEMO_TERMS } from './data/catalogue.js';
import { ensureDemoPeople, type DemoLogins } from './demo-accounts.js';
import { afterOnSale, draftListing, ensureShippingSize, loadCatalogue, photoStates, putOnSale, uploadMissingPhotos, type DemoShop } from './demo-listing.js';
import { DEFAULT_DEMO_LISTINGS, demoListingPlans, type ListingPlan } from './demo-plans.js';

export { DEFAULT_DEMO_LISTINGS, MAX_DEMO_LISTINGS } from './demo-plans.js';
export { demoLogins, type DemoLogins } from './demo-accounts.js';
import { DEMO_SLUG } from './seed-demo.js';
import { seedDemoPages } from './demo-pages.js';
import { seedDemoWork, seedDemoWorkListings } from './demo-work.js';

export interface SeedDemoShopOptions {
  logins: DemoLogins;
  /** how many listings (tests use fewer); the same first ones every time */
  listings?: number;
  /** progress lines */
  log?: (line: string) => void;
  /** stops between steps (the process is shutting down); the next run carries on */
  signal?: AbortSignal;
  /** how often to look for processed photos while waiting */
  pollMs?: number;
}

export interface SeedDemoShopResult {
  listings: number;
  onSale: number;
  seconds: number;
  /** false when stopped by the signal before the end */
  complete: boolean;
}

/** A photo that fails is drawn again this many times at most (it never should: the bytes are ours). */
const PHOTO_RETRIES = 2;
const WAITING_NOTE_MS = 10_000;

/**
 * Fills the demo marketplace with its shop (test mode, after `seedDemo`): the demo's people, then
 * each planned listing as a draft with its photos; a draft goes on sale once the worker has made
 * every photo's sizes. Runs in the background of `npm start` and may be stopped at any point: the
 * next run finds each listing by its seller and title (unique in the demo) and does what is left —
 * no listing twice, and none on sale before all its photos are ready.
 */
export async function seedDemoShop(deps: { orm: MikroORM; ports: Ports }, opts: SeedDemoShopOptions): Promise<SeedDemoShopResult> {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const stopped = () => opts.signal?.aborted === true;
  const marketplace = await findMarketplaceBySlug(crossTenantEm(deps.orm), DEMO_SLUG);
  const em = tenantEm(deps.orm, marketplace.id);
  // A demo marketplace made by an earlier version gets the makers the listings name (upsert by slug).
  await importTerms(em, marketplace, DEMO_TERMS);
  const people = await ensureDemoPeople({ ...deps.ports, em, marketplace }, opts.logins);
  // The front page first: its grids fill with listings as they go on sale.
  if (await seedDemoPages({ ...deps.ports, em, marketplace })) log('Demo shop: home and about pages published.');
  // what waits for the team on a first start (the back office's attention list)
  await seedDemoWork({ ...deps.ports, em, marketplace }, people);
  const shop: DemoShop = { ...deps, marketplace, people, ...(await loadCatalogue(deps.orm, marketplace)) };
  const plans = demoListingPlans(opts.listings ?? DEFAULT_DEMO_LISTINGS);

  const sellerIds = [...new Set(plans.map((p) => people.get(p.seller.key)!.id))];
  const existing = await em.find(ListingSchema, { sellerId: { $in: sellerIds } }, { fields: ['id', 'sellerId', 'title', 'status', 'custody', 'shippingSize'] });
  const byKey = new Map(existing.map((l) => [`${l.sellerId}\n${l.title}`, l]));
  const keyOf = (p: ListingPlan) => `${people.get(p.seller.key)!.id}\n${p.content.title}`;
  let onSale = plans.filter((p) => byKey.get(keyOf(p))?.status === 'published').length;
  // With no listings asked for (DEMO_LISTINGS=0), only the people are made, silently.
  if (plans.length > 0) log(`Demo shop: ${onSale === 0 ? `seeding ${plans.length} listings with photos in the background` : `${onSale}/${plans.length} listings on sale, seeding the rest`}…`);

  const pending = new Map<string, ListingPlan>();
  const retries = new Map<string, number>();
  let lastNote = Date.now();
  const progress = () => {
    if (onSale % 20 === 0 || onSale === plans.length) log(`Demo shop: ${onSale}/${plans.length} listings on sale`);
  };
  /** Puts on sale every pending draft whose photos are all processed; draws failed ones again. */
  const publishReady = async () => {
    const states = await photoStates(shop, [...pending.keys()]);
    for (const [id, state] of states) {
      if (stopped()) return;
      const plan = pending.get(id)!;
      if (state.failed > 0 && (retries.get(id) ?? 0) < PHOTO_RETRIES) {
        retries.set(id, (retries.get(id) ?? 0) + 1);
        await uploadMissingPhotos(shop, plan, id);
      } else if (state.failed > 0) {
        // Drawn again PHOTO_RETRIES times and still failing: it stays a draft rather than go on sale without it.
        log(`Demo shop: "${plan.content.title}" stays a draft: a photo of it could not be processed.`);
        pending.delete(id);
      } else if (state.processing === 0 && state.ready >= plan.photos.count) {
        await putOnSale(shop, plan, id);
        pending.delete(id);
        onSale++;
        progress();
      }
    }
  };

  for (const plan of plans) {
    if (stopped()) break;
    let listing: Pick<Listing, 'id' | 'status' | 'custody' | 'shippingSize'> | undefined = byKey.get(keyOf(plan));
    if (!listing) listing = await draftListing(shop, plan);
    if (listing.status === 'draft') {
      await ensureShippingSize(shop, plan, listing);
      await uploadMissingPhotos(shop, plan, listing.id);
      pending.set(listing.id, plan);
    } else if (listing.status === 'published') {
      await afterOnSale(shop, plan, listing);
    }
    // Another status: the developer moved it on (closed it, …); the demo leaves it be.
    await publishReady();
  }
  while (pending.size > 0 && !stopped()) {
    await sleep(opts.pollMs ?? 250);
    const before = pending.size;
    await publishReady();
    if (pending.size === before && Date.now() - lastNote > WAITING_NOTE_MS) {
      lastNote = Date.now();
      log(`Demo shop: ${onSale}/${plans.length} listings on sale; ${pending.size} waiting for the job worker to process their photos`);
    }
  }
  // listings waiting for the team, after the shop's: two for approval, one valuation request (their photos need the worker too)
  if (!stopped()) await seedDemoWorkListings(shop, { stopped, pollMs: opts.pollMs, retries: PHOTO_RETRIES, log });
  const seconds = (Date.now() - started) / 1000;
  const complete = !stopped();
  if (complete && plans.length > 0) log(`Demo shop ready: ${onSale} listings on sale (${seconds.toFixed(0)} s).`);
  return { listings: plans.length, onSale, seconds, complete };
}
