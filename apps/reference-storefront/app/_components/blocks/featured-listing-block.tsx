import { messages } from '../../../lib/messages';
import { ListingCard } from '../listing-card';
import { BlockHeading } from './block-link';
import type { BlockProps } from './types';

/** One listing brought forward; when sold and kept by the editor (`when_sold: show`), marked as sold. */
export function FeaturedListingBlock({ block: b, lang, headingLevel }: BlockProps) {
  const headingId = `block-${b.id}`;
  return (
    <section className="block block-featured" aria-labelledby={b.heading ? headingId : undefined} data-block="featured_listing">
      <div>
        <BlockHeading text={b.heading} level={headingLevel} id={headingId} />
        {b.text && <p>{b.text}</p>}
        {b.on_sale === false && <p className="badge">{messages(lang).pages.notOnSale}</p>}
      </div>
      <ul className="listing-grid">
        <ListingCard listing={b.listing!} lang={lang} />
      </ul>
    </section>
  );
}
