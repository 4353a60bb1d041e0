import type { Metadata } from 'next';
import Link from 'next/link';
import { safe } from '@trpc/client';
import { read, requireOperator } from '../../lib/session';
import { plainPath, problemOf } from '../../lib/problems';
import { money, str, when, words, type Body } from '../../lib/format';
import { ORDER_STATES } from '../../lib/states';
import { DataTable, FilterField } from '../_components/data';

export const metadata: Metadata = { title: 'Orders' };

type State = (typeof ORDER_STATES)[number];

/** Orders, newest first, by state and chargeback, and by buyer, seller (an id or an email address) and listing: the API filters. */
export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const { api } = await requireOperator();
  const q = await searchParams;
  const state = (ORDER_STATES as readonly string[]).includes(q.state ?? '') ? (q.state as State) : undefined;
  const chargeback = q.chargeback === 'true' ? true : undefined;
  const parties = Object.fromEntries((['buyer', 'seller', 'listing'] as const).map((k) => [k, (q[k] ?? '').trim()]).filter(([, v]) => v !== '')) as { buyer?: string; seller?: string; listing?: string };
  const [found, error] = await safe(api.orders.list.query({ ...(state ? { state } : {}), ...(chargeback ? { chargeback: 'true' } : {}), ...parties, limit: 200 }));
  // a search the API refuses (not an id or an address) says why next to the filters; anything else is the error page
  const problem = error ? problemOf(error) : undefined;
  if (error && problem?.status !== 422) await read(Promise.reject(error));
  const rows = (found?.items ?? []) as Body[];
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
        <FilterField id="orders-buyer" name="buyer" label="Buyer (id or email)" value={q.buyer} />
        <FilterField id="orders-seller" name="seller" label="Seller (id or email)" value={q.seller} />
        <FilterField id="orders-listing" name="listing" label="Listing id" value={q.listing} />
        <div className="field checkbox">
          <label htmlFor="orders-chargeback">With a chargeback</label>
          <input id="orders-chargeback" type="checkbox" name="chargeback" value="true" defaultChecked={!!chargeback} />
        </div>
        <button type="submit">Find</button>
      </form>
      {problem ? (
        <p className="problem" role="alert">
          {(problem.errors ?? []).map((e) => `${plainPath(e.location)}: ${e.message}`).join(' ') || problem.detail}
        </p>
      ) : rows.length === 0 ? (
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
