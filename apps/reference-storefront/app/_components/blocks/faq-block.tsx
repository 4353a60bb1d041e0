import { BlockHeading } from './block-link';
import type { BlockProps } from './types';

/** Questions and answers, each answer behind its question (native disclosure: keyboard and screen readers for free). */
export function FaqBlock({ block: b, headingLevel }: BlockProps) {
  const headingId = `block-${b.id}`;
  return (
    <section className="block block-faq" aria-labelledby={b.heading ? headingId : undefined} data-block="faq">
      <BlockHeading text={b.heading} level={headingLevel} id={headingId} />
      {b.questions!.map((q) => (
        <details key={q.question}>
          <summary>{q.question}</summary>
          <p>{q.answer}</p>
        </details>
      ))}
    </section>
  );
}
