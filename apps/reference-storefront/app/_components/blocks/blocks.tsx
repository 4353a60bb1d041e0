import type { ComponentType } from 'react';
import { BannerBlock } from './banner-block';
import { CategoryTilesBlock } from './category-tiles-block';
import { CtaBlock } from './cta-block';
import { FaqBlock } from './faq-block';
import { FeaturedListingBlock } from './featured-listing-block';
import { HeroBlock } from './hero-block';
import { ImageTextBlock } from './image-text-block';
import { LinksBlock } from './links-block';
import { ListingGridBlock } from './listing-grid-block';
import { NewsletterBlock } from './newsletter-block';
import { newsletterForm } from './newsletter-slot';
import { PromisesBlock } from './promises-block';
import { ShowroomBlock } from './showroom-block';
import { TextBlock } from './text-block';
import type { Block, BlockProps } from './types';

/** One component per block type; a type this storefront does not know yet is skipped (the API may add types). */
const COMPONENTS: Record<string, ComponentType<BlockProps>> = {
  hero: HeroBlock,
  links: LinksBlock,
  listing_grid: ListingGridBlock,
  banner: BannerBlock,
  category_tiles: CategoryTilesBlock,
  image_text: ImageTextBlock,
  featured_listing: FeaturedListingBlock,
  cta: CtaBlock,
  newsletter: NewsletterBlock,
  promises: PromisesBlock,
  showroom: ShowroomBlock,
  text: TextBlock,
  faq: FaqBlock,
};

/** Whether the page's own title is its h1: not when it opens with a hero that has a heading (that is the h1). */
export function titleIsHeading(blocks: Block[]): boolean {
  const first = blocks.find((b) => b.type in COMPONENTS);
  return !(first?.type === 'hero' && first.heading);
}

/** A content page's blocks in order. */
export function Blocks({ blocks, lang, slug }: { blocks: Block[]; lang: string; slug: string }) {
  const known = blocks.filter((b) => b.type in COMPONENTS);
  const heroIsH1 = !titleIsHeading(known);
  return (
    <div className="blocks">
      {known.map((block, i) => {
        const Component = COMPONENTS[block.type]!;
        return <Component key={block.id} block={block} lang={lang} slug={slug} headingLevel={i === 0 && heroIsH1 ? 1 : 2} newsletter={newsletterForm} />;
      })}
    </div>
  );
}
