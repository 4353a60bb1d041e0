import type { ReactNode } from 'react';
import type { ApiOutputs } from '../../../lib/api';

export type PageBody = ApiOutputs['pages']['get'];
export type Block = PageBody['blocks'][number];
export type ImageRef = NonNullable<Block['image']>;
export type BlockLink = NonNullable<Block['link']>;

/** What the newsletter block hands to the form that signs people up (see newsletter-slot.tsx). */
export interface NewsletterProps {
  lang: string;
  source: string;
  heading?: string;
  text?: string;
  buttonLabel?: string;
}

export interface BlockProps {
  block: Block;
  lang: string;
  /** the first block's heading is the page's h1 when it is a hero; every other block heading is an h2 */
  headingLevel: 1 | 2;
  /** the page's slug (the newsletter's sign-up source) */
  slug: string;
  newsletter?: (props: NewsletterProps) => ReactNode;
}
