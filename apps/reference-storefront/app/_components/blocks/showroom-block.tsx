import { displayName } from '../../../lib/intl';
import { messages } from '../../../lib/messages';
import { BlockHeading } from './block-link';
import type { BlockProps } from './types';

/** A place to visit: address, opening hours, whether buyers pick up there. */
export function ShowroomBlock({ block: b, lang, headingLevel }: BlockProps) {
  const t = messages(lang).pages;
  const s = b.location!;
  const headingId = `block-${b.id}`;
  return (
    <section className="block block-showroom card" aria-labelledby={headingId} data-block="showroom">
      <BlockHeading text={b.heading ?? s.name} level={headingLevel} id={headingId} />
      {b.text && <p>{b.text}</p>}
      <address>
        <strong>{s.name}</strong>
        <br />
        {s.line1}
        <br />
        {s.postal_code} {s.city}
        <br />
        {displayName(lang, 'region', s.country)}
      </address>
      {s.opening_hours && (
        <p className="hours">
          {t.openingHours}: {s.opening_hours}
        </p>
      )}
      {s.buyer_pickup && <p className="muted">{t.pickup}</p>}
    </section>
  );
}
