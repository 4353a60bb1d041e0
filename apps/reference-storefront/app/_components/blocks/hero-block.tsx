import { messages } from '../../../lib/messages';
import { ListingCard } from '../listing-card';
import { BlockImage } from './block-image';
import { BlockButtons, BlockHeading } from './block-link';
import type { BlockProps } from './types';

/** The opening block: eyebrow, heading, text, buttons, a search box, and an image or a listing beside them. */
export function HeroBlock({ block: b, lang, headingLevel }: BlockProps) {
  const t = messages(lang).pages;
  const headingId = `block-${b.id}`;
  return (
    <section className={`block block-hero${b.image || b.listing ? ' with-visual' : ''}`} aria-labelledby={b.heading ? headingId : undefined} data-block="hero">
      <div className="block-hero-text">
        {b.eyebrow && <p className="eyebrow">{b.eyebrow}</p>}
        <BlockHeading text={b.heading} level={headingLevel} id={headingId} />
        {b.text && <p className="lead">{b.text}</p>}
        {b.search && (
          <form action={`/${lang}/search`} method="get" role="search" className="block-search">
            <label htmlFor={`${headingId}-q`} className="visually-hidden">
              {t.searchLabel}
            </label>
            <input id={`${headingId}-q`} name="q" type="search" placeholder={t.searchPlaceholder} maxLength={200} />
            <button type="submit">{t.searchSubmit}</button>
          </form>
        )}
        <BlockButtons links={b.buttons} lang={lang} />
      </div>
      {b.image && (
        <div className="block-hero-visual">
          <BlockImage image={b.image} sizes="(max-width: 900px) 100vw, 50vw" eager />
        </div>
      )}
      {!b.image && b.listing && (
        <ul className="listing-grid block-hero-visual">
          <ListingCard listing={b.listing} lang={lang} />
        </ul>
      )}
    </section>
  );
}
