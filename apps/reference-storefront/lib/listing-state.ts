import type { Messages } from './messages';

/** What the seller's listing pages need of a listing to say where it stands. */
interface Standing {
  status: keyof Messages['listings']['status'];
  stock: number;
  units_sold?: number;
  units_reserved?: number;
}

/**
 * Where a seller's listing stands, in words: a published listing with no stock left is "Sold" (all
 * paid for) or "Reserved" (units held by orders awaiting payment), not "On sale" — its public page
 * is gone; one on sale says how many are left once more than one was listed or some sold.
 * `key` is the badge's class (`published`, `sold`, `reserved`, or the status).
 */
export function sellerStanding(l: Standing, t: Messages['listings']): { key: string; label: string; detail?: string } {
  if (l.status !== 'published') return { key: l.status, label: t.status[l.status] };
  const sold = l.units_sold ?? 0;
  const reserved = l.units_reserved ?? 0;
  if (l.stock <= 0) return reserved > 0 ? { key: 'reserved', label: t.standing.reserved, detail: t.standing.reservedNote(reserved) } : { key: 'sold', label: t.standing.sold, detail: sold > 1 ? t.standing.soldUnits(sold) : undefined };
  return { key: 'published', label: t.status.published, ...(l.stock > 1 || sold > 0 || reserved > 0 ? { detail: t.standing.left(l.stock, sold, reserved) } : {}) };
}
