import { BlockLinkView } from './block-link';
import type { BlockProps } from './types';

/** A row of links (quick ways into the shop). */
export function LinksBlock({ block: b, lang }: BlockProps) {
  return (
    <nav className="block block-links" aria-label={b.links!.map((l) => l.label).join(', ')} data-block="links">
      <ul>
        {b.links!.map((l) => (
          <li key={`${l.href}${l.label}`}>
            <BlockLinkView link={l} lang={lang} />
          </li>
        ))}
      </ul>
    </nav>
  );
}
