import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../lib/session';
import { money, str, when, words, type Body } from '../../lib/format';
import { LISTING_STATUSES } from '../../lib/states';
import { SellerName } from '../_components/seller';
import { Tabs } from '../_components/tabs';

export const metadata: Metadata = { title: 'Listings' };

type Status = (typeof LISTING_STATUSES)[number];

/** The review queue (`pending_approval` by default) and every other status, with photos and the seller; 24 a page. */
export default async function ListingsPage({ searchParams }: { searchParams: Promise<{ status?: string; cursor?: string }> }) {
  const { api } = await requireOperator();
  const q = await searchParams;
  const status: Status = (LISTING_STATUSES as readonly string[]).includes(q.status ?? '') ? (q.status as Status) : 'pending_approval';
  const page = await read(api.listings.list.query({ status, limit: 24, ...(q.cursor ? { cursor: q.cursor } : {}) }));
  return (
    <main id="main">
      <h1>Listings</h1>
      <Tabs label="Listing statuses" sections={LISTING_STATUSES.map((s) => ({ href: `/listings?status=${s}`, label: words(s) }))} current={`/listings?status=${status}`} />
      {page.items.length === 0 ? (
        <p>No listings are {words(status)}.</p>
      ) : (
        <ul className="cards" aria-label={`Listings ${words(status)}`}>
          {page.items.map((item) => {
            const l = item as Body;
            const photo = (l.images as { urls?: { medium: string } }[] | undefined)?.find((i) => i.urls)?.urls?.medium;
            const price = l.price as { amount: number; currency: string } | undefined;
            return (
              <li key={str(l, 'id')} className="card">
                {photo ? <img src={photo} alt="" width={300} height={300} /> : <p className="muted">No photo yet</p>}
                <h2>
                  <Link href={`/listings/${str(l, 'id')}`}>{str(l, 'title') || 'Untitled'}</Link>
                </h2>
                <p>
                  {price ? money(price.amount, price.currency) : 'No price'} · {words(l.status)}
                  <br />
                  <span className="muted">
                    Seller <SellerName seller={item.seller} /> · changed {when(l.updated_at)}
                  </span>
                </p>
              </li>
            );
          })}
        </ul>
      )}
      {page.next_cursor && (
        <p className="pager">
          <Link href={`/listings?status=${status}&cursor=${encodeURIComponent(page.next_cursor)}`}>Next page</Link>
        </p>
      )}
    </main>
  );
}
