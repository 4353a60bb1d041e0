import type { ReactNode } from 'react';
import Link from 'next/link';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Nodes } from 'mdast';
import type { BlockProps } from './types';

/** Links a page's text may carry: shop paths, https and mail addresses (never `javascript:` and the like). */
const safeHref = (url: string) => (url.startsWith('/') && !url.startsWith('//')) || /^(https:|mailto:)/i.test(url);

/**
 * Markdown as React elements, never as HTML: raw HTML in the text is shown as text, links keep only
 * safe addresses, and headings are h2 at the most (the page has its own h1: `#` and `##` are both h2).
 */
function render(node: Nodes, key: number | string): ReactNode {
  const kids = () => ('children' in node ? node.children.map((c, i) => render(c as Nodes, i)) : null);
  switch (node.type) {
    case 'root':
      return <>{kids()}</>;
    case 'paragraph':
      return <p key={key}>{kids()}</p>;
    case 'heading': {
      const H = `h${Math.min(Math.max(node.depth, 2), 6)}` as 'h2';
      return <H key={key}>{kids()}</H>;
    }
    case 'list':
      return node.ordered ? <ol key={key}>{kids()}</ol> : <ul key={key}>{kids()}</ul>;
    case 'listItem':
      return <li key={key}>{node.children.length === 1 && node.children[0]!.type === 'paragraph' ? node.children[0]!.children.map((c, i) => render(c, i)) : kids()}</li>;
    case 'blockquote':
      return <blockquote key={key}>{kids()}</blockquote>;
    case 'emphasis':
      return <em key={key}>{kids()}</em>;
    case 'strong':
      return <strong key={key}>{kids()}</strong>;
    case 'delete':
      return <del key={key}>{kids()}</del>;
    case 'inlineCode':
      return <code key={key}>{node.value}</code>;
    case 'code':
      return (
        <pre key={key}>
          <code>{node.value}</code>
        </pre>
      );
    case 'break':
      return <br key={key} />;
    case 'thematicBreak':
      return <hr key={key} />;
    case 'link':
      if (!safeHref(node.url)) return <span key={key}>{kids()}</span>;
      return node.url.startsWith('/') ? (
        <Link key={key} href={node.url}>
          {kids()}
        </Link>
      ) : (
        <a key={key} href={node.url} rel="noopener noreferrer">
          {kids()}
        </a>
      );
    case 'text':
    case 'html':
      return node.value;
    default:
      // images, tables, footnotes…: their words only
      return 'children' in node ? <span key={key}>{kids()}</span> : 'value' in node ? String(node.value) : null;
  }
}

/** Free text the editor wrote in Markdown. */
export function TextBlock({ block: b }: BlockProps) {
  return (
    <section className="block block-text prose" data-block="text">
      {render(fromMarkdown(b.body!), 'root')}
    </section>
  );
}
