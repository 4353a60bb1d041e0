import Link from 'next/link';
import { BlockImage } from './block-image';
import { BlockHeading } from './block-link';
import type { BlockProps } from './types';

/** Categories as tiles, each to its category page, named in the page's language (or the editor's label). */
export function CategoryTilesBlock({ block: b, lang, headingLevel }: BlockProps) {
  const headingId = `block-${b.id}`;
  return (
    <section className="block block-tiles" aria-labelledby={b.heading ? headingId : undefined} data-block="category_tiles">
      <BlockHeading text={b.heading} level={headingLevel} id={headingId} />
      <ul className="tiles">
        {b.tiles!.map((tile) => (
          <li key={tile.category_id}>
            <Link href={`/${lang}/c/${tile.category.slug}`} className="tile">
              {tile.image && <BlockImage image={{ ...tile.image, alt: '' }} sizes="200px" square />}
              <span>{tile.label ?? tile.category.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
