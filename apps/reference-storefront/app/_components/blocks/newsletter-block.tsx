import { messages } from '../../../lib/messages';
import { BlockHeading } from './block-link';
import type { BlockProps } from './types';

/** Newsletter sign-up: the words are the editor's; the form is the shop's (handed in through `newsletter`, which names its own section). */
export function NewsletterBlock({ block: b, lang, headingLevel, slug, newsletter }: BlockProps) {
  const headingId = `block-${b.id}`;
  return (
    <section className="block block-newsletter" aria-labelledby={!newsletter && b.heading ? headingId : undefined} data-block="newsletter">
      {newsletter ? (
        newsletter({ lang, source: `page:${slug}`, heading: b.heading, text: b.text, buttonLabel: b.button_label })
      ) : (
        <>
          <BlockHeading text={b.heading} level={headingLevel} id={headingId} />
          <p>{b.text ?? messages(lang).pages.newsletterFallback}</p>
        </>
      )}
    </section>
  );
}
