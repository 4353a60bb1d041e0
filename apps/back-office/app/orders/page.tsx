import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../lib/session';
import { money, str, when, words, type Body } from '../../lib/format';
import { ORDER_STATES } from '../../lib/states';
import { DataTable, FilterField } from '../_components/data';

export const metadata: Metadata = { title: 'Orders' };

type State = (typeof ORDER_STATES)[number];

/**
 * Orders, newest first, by state and chargeback; buyer, seller and listing narrow the page's rows by
 * id (the API filters by state and chargeback; a search by party is for when it takes one).
 */
export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const { api } = await requireOperator();
  const q = await searchParams;
  const state = (ORDER_STATES as readonly string[]).includes(q.state ?? '') ? (q.state as State) : undefined;
  const chargeback = q.chargeback === 'true' ? true : undefined;
  const { items } = await read(api.orders.list.query({ ...(state ? { state } : {}), ...(chargeback ? { chargeback: 'true' } : {}), limit: 200 }));
  const party = (o: Body) => (!q.buyer || str(o, 'buyer_id') === q.buyer.trim()) && (!q.seller || str(o, 'seller_id') === q.seller.trim()) && (!q.listing || str(o, 'listing_id') === q.listing.trim());
  const rows = (items as Body[]).filter(party);
  return (
    <main id="main">
      <h1>Orders</h1>
      <form className="form inline" aria-label="Find orders" method="get">
        <div className="field">
          <label htmlFor="orders-state">State</label>
          <select id="orders-state" name="state" defaultValue={state ?? ''}>
            <option value="">Any</option>
            {ORDER_STATES.map((s) => (
              <option key={s} value={s}>
                {words(s)}
              </option>
            ))}
          </select>
        </div>
        <FilterField id="orders-buyer" name="buyer" label="Buyer id" value={q.buyer} />
        <FilterField id="orders-seller" name="seller" label="Seller id" value={q.seller} />
        <FilterField id="orders-listing" name="listing" label="Listing id" value={q.listing} />
        <div className="field checkbox">
          <label htmlFor="orders-chargeback">With a chargeback</label>
          <input id="orders-chargeback" type="checkbox" name="chargeback" value="true" defaultChecked={!!chargeback} />
        </div>
        <button type="submit">Find</button>
      </form>
      {rows.length === 0 ? (
        <p>No orders found.</p>
      ) : (
        <DataTable
          caption={`${rows.length === 1 ? '1 order' : `${rows.length} orders`}, newest first`}
          columns={['Order', 'State', 'Total', 'Placed']}
          rows={rows.map((o) => ({ key: str(o, 'id'), cells: [<Link href={`/orders/${str(o, 'id')}`}>{str(o, 'id').slice(0, 8)}</Link>, words(o.state), money(o.total, o.currency), when(o.created_at)] }))}
        />
      )}
    </main>
  );
}
