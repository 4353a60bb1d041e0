import { setTimeout as sleep } from 'node:timers/promises';
import { ListingSchema, type Listing, type User } from '@hm/db/entities';
import { tenantEm } from '@hm/db/orm';
import type { CommandContext } from '../core/context.js';
import { acceptOffer, offerForListing, publishListing } from '../listings/index.js';
import { draftListing, photoStates, uploadMissingPhotos, type DemoShop } from './demo-listing.js';
import { demoListingPlans, type ListingPlan } from './demo-plans.js';
import { startConversation, supportInbox } from '../messages/index.js';
import { DEMO_BUYER } from './data/people.js';

/**
 * Work the demo leaves for the team (issue 26), so the back office's attention list is not empty on
 * a first start. Each step looks first and does only what is missing: a restart adds nothing.
 */
export async function seedDemoWork(ctx: CommandContext, people: Map<string, User>): Promise<{ added: string[] }> {
  const added: string[] = [];
  // the demo buyer asks support a question nobody has answered yet (once: any support conversation counts)
  if ((await supportInbox(ctx.em, { unanswered: false, limit: 1 })).length === 0) {
    await startConversation({ ...ctx, user: people.get(DEMO_BUYER.key)! }, { support: true, body: 'Hi! Can you store my armchair until it sells? I live in Stockholm.' });
    added.push('a support question');
  }
  return { added };
}

/** Listings the demo's sellers leave with the team: two waiting for approval (a valuation the seller accepted), one valuation request. */
export function demoWorkPlans(): (ListingPlan & { work: 'approval' | 'valuation' })[] {
  return demoListingPlans(3).map((p, i) => ({
    ...p,
    content: { ...p.content, title: `${p.content.title} (for review)` },
    stored: false,
    favouritedBy: [],
    photos: { ...p.photos, count: 1 },
    work: i < 2 ? ('approval' as const) : ('valuation' as const),
  }));
}

/**
 * The work listings (issue 26 item 6): a draft with its photo, then — the worker has made its sizes
 * — published asking for a valuation; for the two that wait for approval the team offers their price
 * and the seller accepts, which puts them in `pending_approval` (the demo marketplace does not
 * require approval, so this is how a listing lands there). Each step looks at the listing's status
 * first: a restart carries on and adds nothing. Waits for the photos (the job worker) at most while
 * `stopped` says no.
 */
export async function seedDemoWorkListings(s: DemoShop, opts: { stopped: () => boolean; pollMs?: number | undefined; retries: number; log: (line: string) => void }): Promise<{ added: string[] }> {
  const added: string[] = [];
  const team: CommandContext = { ...s.ports, em: tenantEm(s.orm, s.marketplace.id), marketplace: s.marketplace };
  const plans = demoWorkPlans();
  const sellerIds = [...new Set(plans.map((p) => s.people.get(p.seller.key)!.id))];
  const found = await team.em.find(ListingSchema, { sellerId: { $in: sellerIds }, title: { $in: plans.map((p) => p.content.title) } }, { fields: ['id', 'sellerId', 'title', 'status', 'shippingSize'] });
  const ids = new Map<(typeof plans)[number], string>();
  for (const plan of plans) {
    const seller = s.people.get(plan.seller.key)!;
    let listing: Pick<Listing, 'id' | 'status' | 'shippingSize'> | undefined = found.find((l) => l.sellerId === seller.id && l.title === plan.content.title);
    if (!listing) listing = await draftListing(s, plan);
    if (listing.status === 'draft') await uploadMissingPhotos(s, plan, listing.id);
    ids.set(plan, listing.id);
  }
  for (const plan of plans) {
    const id = ids.get(plan)!;
    const seller = { ...team, em: tenantEm(s.orm, s.marketplace.id), user: s.people.get(plan.seller.key)! };
    const fresh = () => tenantEm(s.orm, s.marketplace.id).findOneOrFail(ListingSchema, { id });
    let l = await fresh();
    if (l.status === 'draft') {
      let retries = 0;
      let ready = false;
      while (!opts.stopped()) {
        const state = (await photoStates(s, [id])).get(id)!;
        if (state.failed > 0 && retries >= opts.retries) break;
        if (state.failed > 0) {
          retries++;
          await uploadMissingPhotos(s, plan, id);
        } else if (state.processing === 0 && state.ready > 0) {
          ready = true;
          break;
        }
        await sleep(opts.pollMs ?? 250);
      }
      if (opts.stopped()) return { added };
      if (!ready) {
        opts.log(`Demo shop: "${plan.content.title}" stays a draft: its photo could not be processed.`);
        continue;
      }
      l = await publishListing(seller, id, { askValuation: true, wantsStorage: false });
      if (plan.work === 'valuation') added.push('a valuation request');
    }
    if (plan.work !== 'approval') continue;
    const currency = s.marketplace.currencies[0]!;
    if (l.status === 'pending_valuation') l = await offerForListing({ ...team, em: tenantEm(s.orm, s.marketplace.id) }, id, { amount: plan.content.price.amount, currency, note: 'Our valuation.' });
    if (l.status === 'valuation_offered') {
      await acceptOffer(seller, id);
      added.push('a listing waiting for approval');
    }
  }
  return { added };
}
