import { setTimeout as sleep } from 'node:timers/promises';
import { ApiKeySchema, ListingSchema, OrderSchema, type Listing, type Order, type User } from '@hm/db/entities';
import { tenantEm } from '@hm/db/orm';
import type { CommandContext, UserCommandContext } from '../core/context.js';
import { PaymentError } from '../core/ports/payments.js';
import { withMarketplace } from '../core/request-scope.js';
import { checkout, createOrderPayment } from '../flows/index.js';
import { acceptOffer, offerForListing, publishListing } from '../listings/index.js';
import { recordPayment, transitionOrder, ZPlaceOrder } from '../orders/index.js';
import { recordPaymentEvents } from '../payments/index.js';
import { draftListing, photoStates, putOnSale, uploadMissingPhotos, type DemoShop } from './demo-listing.js';
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

/** Listings the demo's sellers leave with the team: two waiting for approval (a valuation the seller accepted), one valuation request, one the demo buyer bought and disputes. */
export function demoWorkPlans(): (ListingPlan & { work: WorkKind })[] {
  return demoListingPlans(WORK.length).map((p, i) => ({
    ...p,
    content: { ...p.content, title: `${p.content.title} (for review)` },
    stored: false,
    favouritedBy: [],
    photos: { ...p.photos, count: 1 },
    work: WORK[i]!,
  }));
}
type WorkKind = 'approval' | 'valuation' | 'dispute';
/** In the order of the first demo plans: the fourth is a small lamp that ships, so the disputed order is sent with a tracking number. */
const WORK: WorkKind[] = ['approval', 'approval', 'valuation', 'dispute'];

/**
 * The work listings (issue 26 item 6): a draft with its photo, then — the worker has made its sizes
 * — published asking for a valuation; for the two that wait for approval the team offers their price
 * and the seller accepts, which puts them in `pending_approval` (the demo marketplace does not
 * require approval, so this is how a listing lands there). The fourth goes on sale and the demo buyer
 * buys it and disputes it (seedDemoDispute). Each step looks at the listing's (and the order's)
 * status first: a restart carries on and adds nothing. Waits for the photos and the payment (the job
 * worker) at most while `stopped` says no.
 */
export async function seedDemoWorkListings(s: DemoShop, opts: { stopped: () => boolean; pollMs?: number | undefined; retries: number; log: (line: string) => void }): Promise<{ added: string[] }> {
  const added: string[] = [];
  const team: CommandContext = { ...s.ports, em: tenantEm(s.orm, s.marketplace.id), marketplace: s.marketplace };
  const buyer = s.people.get(DEMO_BUYER.key)!;
  // a disputed order of the demo buyer already waits for the team: the demo adds no other (nor its listing)
  const disputed = (await team.em.count(OrderSchema, { buyerId: buyer.id, status: 'disputed' })) > 0;
  const plans = demoWorkPlans().filter((p) => p.work !== 'dispute' || !disputed);
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
      if (plan.work === 'dispute') await putOnSale(s, plan, id);
      else l = await publishListing(seller, id, { askValuation: true, wantsStorage: false });
      if (plan.work === 'valuation') added.push('a valuation request');
    }
    if (plan.work === 'dispute') {
      if (await seedDemoDispute(s, plan, id, opts)) added.push('a disputed order');
      continue;
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

/** The demo buyer's Stockholm address, for the parcel of the disputed order. */
const BUYER_ADDRESS = { name: 'Alex Berg', line1: 'Hornsgatan 12', postal_code: '118 20', city: 'Stockholm', country: 'SE' };
/** How long a start waits for the worker to confirm the sandbox payment before leaving it to the next start. */
const PAYMENT_WAIT_MS = 120_000;
/** An order of the demo buyer on the dispute listing that is still on its way to the dispute. */
const ON_ITS_WAY: Order['status'][] = ['pending_payment', 'purchased', 'delivered'];

/**
 * The demo buyer buys the dispute listing as a buyer does (checkout, paid in the sandbox through
 * the test helper's provider events, confirmed by the worker), the seller marks it sent with a
 * tracking number, and the buyer disputes it: every move by the order table's commands. Looks first:
 * an order of the buyer on this listing that is disputed or past it (the team resolved it) → nothing;
 * one left `pending_payment`, `purchased` or `delivered` by an interrupted start is carried on, never
 * a second bought; one whose payment window ended is bought again (its unit is back in stock).
 * Test mode only (the sandbox's test helper): a live marketplace has no demo. Answers whether it
 * disputed the order now.
 */
async function seedDemoDispute(s: DemoShop, plan: ListingPlan, listingId: string, opts: { stopped: () => boolean; pollMs?: number | undefined; log: (line: string) => void }): Promise<boolean> {
  const as = (key: string): UserCommandContext => ({ ...s.ports, em: tenantEm(s.orm, s.marketplace.id), marketplace: s.marketplace, user: s.people.get(key)! });
  const buyer = s.people.get(DEMO_BUYER.key)!;
  const leave = (why: string) => {
    opts.log(`Demo shop: the disputed order is not made (${why}); the next start carries on.`);
    return false;
  };
  // never in live mode: the demo exists in test mode only, and a live marketplace's orders are real
  if ((await tenantEm(s.orm, s.marketplace.id).count(ApiKeySchema, { mode: 'live' })) > 0) return false;
  // at most a second purchase after a first whose payment window ended
  for (let attempt = 0; attempt < 2 && !opts.stopped(); attempt++) {
    const em = tenantEm(s.orm, s.marketplace.id);
    const orders = await em.find(OrderSchema, { buyerId: buyer.id, listingId }, { orderBy: { createdAt: 'desc' } });
    if (orders.some((o) => !ON_ITS_WAY.includes(o.status) && o.status !== 'payment_expired')) return false;
    let order = orders.find((o) => ON_ITS_WAY.includes(o.status));
    let clientSecret = order?.paymentClientSecret ?? undefined;
    if (!order) {
      const listing = await em.findOneOrFail(ListingSchema, { id: listingId });
      if (listing.status !== 'published' || listing.stock < 1) return leave(`"${plan.content.title}" is not on sale`);
      const input = withMarketplace(s.marketplace, () => ZPlaceOrder.parse({ listing_id: listingId, delivery: { method: 'shipping', address: BUYER_ADDRESS } }));
      ({ order, clientSecret } = await checkout(as(DEMO_BUYER.key), input));
    }
    if (order.status === 'pending_payment') {
      const team = { ...s.ports, em, marketplace: s.marketplace };
      // placed just before an interruption, its payment not started yet: the same payment (by the order id)
      if (!clientSecret) {
        const payment = await createOrderPayment(team, order);
        await recordPayment(em, order, payment);
        clientSecret = payment.clientSecret;
      }
      if (order.paymentDueAt && order.paymentDueAt > s.ports.clock.now()) {
        try {
          await recordPaymentEvents({ orm: s.orm, clock: s.ports.clock }, (await s.ports.payments.confirmForTest(clientSecret, 'succeeded', s.marketplace.id)) ?? []);
        } catch (e) {
          // paid before an interruption: its event is recorded and the worker confirms it
          if (!(e instanceof PaymentError && e.kind === 'unexpected_state')) throw e;
        }
      }
      // the worker handles the provider's event (→ purchased) or ends the payment window (→ payment_expired)
      const until = Date.now() + PAYMENT_WAIT_MS;
      while (order.status === 'pending_payment' && !opts.stopped() && Date.now() < until) {
        await sleep(opts.pollMs ?? 250);
        order = await tenantEm(s.orm, s.marketplace.id).findOneOrFail(OrderSchema, { id: order.id });
      }
      if (opts.stopped()) return false;
      if (order.status === 'pending_payment') return leave('its payment was not confirmed by the job worker in time');
      if (order.status === 'payment_expired') continue;
    }
    if (order.status === 'purchased') {
      ({ order } = await transitionOrder(as(plan.seller.key), order.id, 'mark-delivered', { tracking_number: 'JJSE000000000123', carrier: 'PostNord' }));
    }
    if (order.status === 'delivered') {
      await transitionOrder(as(DEMO_BUYER.key), order.id, 'dispute', { note: 'The shade arrived cracked.' });
      return true;
    }
    return false;
  }
  return false;
}
