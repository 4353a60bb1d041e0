import type { ImageRef } from './types';

/**
 * An uploaded image at the size the layout needs: `srcset` from the ImageRef's sizes (medium 800,
 * large 1600, xlarge 2400 px wide; thumb is a square crop, so only for square slots), with its
 * width and height so the page does not jump while it loads. A phone image, when given, replaces
 * it on narrow screens.
 */
export function BlockImage({ image, phone, sizes, square, eager }: { image: ImageRef; phone?: ImageRef; sizes: string; square?: boolean; eager?: boolean }) {
  const widths = (i: ImageRef) => {
    const w = (n: number) => Math.min(n, Math.max(i.width, i.height));
    return `${i.urls.medium} ${w(800)}w, ${i.urls.large} ${w(1600)}w, ${i.urls.xlarge} ${w(2400)}w`;
  };
  const img = square ? (
    <img src={image.urls.thumb} srcSet={`${image.urls.thumb} 400w`} sizes={sizes} width={400} height={400} alt={image.alt} loading={eager ? 'eager' : 'lazy'} />
  ) : (
    <img src={image.urls.large} srcSet={widths(image)} sizes={sizes} width={image.width} height={image.height} alt={image.alt} loading={eager ? 'eager' : 'lazy'} />
  );
  if (!phone) return img;
  return (
    <picture>
      <source media="(max-width: 640px)" srcSet={widths(phone)} sizes="100vw" />
      {img}
    </picture>
  );
}
