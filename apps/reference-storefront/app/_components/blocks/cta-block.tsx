import { BlockButtons, BlockHeading } from './block-link';
import type { BlockProps } from './types';

/** A call to action in the brand's colour, light or dark. */
export function CtaBlock({ block: b, lang, headingLevel }: BlockProps) {
  const headingId = `block-${b.id}`;
  return (
    <section className={`block block-cta tone-${b.tone ?? 'brand'}`} aria-labelledby={b.heading ? headingId : undefined} data-block="cta">
      <BlockHeading text={b.heading} level={headingLevel} id={headingId} />
      {b.text && <p>{b.text}</p>}
      <BlockButtons links={b.buttons} lang={lang} />
    </section>
  );
}
