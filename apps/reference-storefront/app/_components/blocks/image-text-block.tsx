import { BlockImage } from './block-image';
import { BlockHeading, BlockLinkView } from './block-link';
import type { BlockProps } from './types';

/** A picture beside a short text, the picture on the side the editor chose. */
export function ImageTextBlock({ block: b, lang, headingLevel }: BlockProps) {
  const headingId = `block-${b.id}`;
  return (
    <section className={`block block-image-text image-${b.image_side ?? 'left'}`} aria-labelledby={b.heading ? headingId : undefined} data-block="image_text">
      {b.image && <BlockImage image={b.image} sizes="(max-width: 900px) 100vw, 50vw" />}
      <div>
        {b.eyebrow && <p className="eyebrow">{b.eyebrow}</p>}
        <BlockHeading text={b.heading} level={headingLevel} id={headingId} />
        {b.text && <p>{b.text}</p>}
        {b.link && <BlockLinkView link={b.link} lang={lang} />}
      </div>
    </section>
  );
}
