import Link from 'next/link';

export type Seller = { id: string; display_name: string; email: string };

/** Who sells a listing: the name (or the address when there is none) linking to the user, then the address. */
export function SellerName({ seller }: { seller: Seller }) {
  return (
    <>
      <Link href={`/users?email=${encodeURIComponent(seller.email)}`} data-seller={seller.id}>
        {seller.display_name || seller.email}
      </Link>
      {seller.display_name && <span className="break"> ({seller.email})</span>}
    </>
  );
}
