import Link from 'next/link';
import { messages } from '../../../lib/messages';
import type { BlockLink } from './types';

/** A block's link or button: a shop path stays in the shop; an https address opens the other site. */
export function BlockLinkView({ link, lang, button }: { link: BlockLink; lang: string; button?: boolean }) {
  const className = button ? `button${link.style === 'secondary' ? ' secondary' : ''}` : 'block-link';
  if (link.href.startsWith('/')) {
    return (
      <Link href={link.href} className={className}>
        {link.label}
      </Link>
    );
  }
  return (
    <a href={link.href} className={className} rel="noopener noreferrer">
      {link.label}
      <span className="visually-hidden"> {messages(lang).pages.opensElsewhere}</span>
    </a>
  );
}

export function BlockButtons({ links, lang }: { links?: BlockLink[]; lang: string }) {
  if (!links?.length) return null;
  return (
    <p className="actions">
      {links.map((l) => (
        <BlockLinkView key={`${l.href}${l.label}`} link={l} lang={lang} button />
      ))}
    </p>
  );
}

/** The block's heading at its level (the page's h1 for a leading hero), or nothing. */
export function BlockHeading({ text, level, id }: { text?: string; level: 1 | 2; id: string }) {
  if (!text) return null;
  return level === 1 ? <h1 id={id}>{text}</h1> : <h2 id={id}>{text}</h2>;
}
