import { BlockImage } from './block-image';
import { BlockHeading, BlockLinkView } from './block-link';
import type { BlockProps } from './types';

/** A wide picture with a message; the phone image (when given) on narrow screens. */
export function BannerBlock({ block: b, lang, headingLevel }: BlockProps) {
  const headingId = `block-${b.id}`;
  return (
    <section className="block block-banner" aria-labelledby={b.heading ? headingId : undefined} data-block="banner">
      {b.image && <BlockImage image={b.image} phone={b.phone_image} sizes="100vw" />}
      {(b.heading || b.text || b.link) && (
        <div className="block-banner-text">
          <BlockHeading text={b.heading} level={headingLevel} id={headingId} />
          {b.text && <p>{b.text}</p>}
          {b.link && <BlockLinkView link={b.link} lang={lang} button />}
        </div>
      )}
    </section>
  );
}
