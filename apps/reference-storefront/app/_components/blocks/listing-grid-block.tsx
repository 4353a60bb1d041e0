import { ListingGrid } from '../listing-card';
import { BlockHeading, BlockLinkView } from './block-link';
import type { BlockProps } from './types';

/** Listings on sale, picked by the editor or by a rule; the API leaves the block out when none are. */
export function ListingGridBlock({ block: b, lang, headingLevel }: BlockProps) {
  const headingId = `block-${b.id}`;
  return (
    <section className="block block-listing-grid" aria-labelledby={b.heading ? headingId : undefined} data-block="listing_grid">
      <BlockHeading text={b.heading} level={headingLevel} id={headingId} />
      <ListingGrid items={b.listings!} lang={lang} />
      {b.link && (
        <p>
          <BlockLinkView link={b.link} lang={lang} />
        </p>
      )}
    </section>
  );
}
