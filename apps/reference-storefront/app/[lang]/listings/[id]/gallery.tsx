'use client';

import { useState } from 'react';

export interface GalleryPhoto {
  id: string;
  thumb: string;
  medium: string;
  large: string;
  width: number;
  height: number;
}

/**
 * The main photo and a row of thumbnails; each thumbnail is a button that shows its photo in the
 * main place (keyboard: Tab to it, Enter or Space; arrow keys move along the row). The main photo
 * lets the browser pick the 800 or 1600 px size for the screen; the 400 px square is the thumbnail.
 */
export function Gallery({ photos, title, labels }: { photos: GalleryPhoto[]; title: string; labels: { photo: string[]; show: string[]; none: string } }) {
  const [current, setCurrent] = useState(0);
  const main = photos[current];
  if (!main) {
    return (
      <div className="gallery-main gallery-empty" role="img" aria-label={labels.none}>
        {labels.none}
      </div>
    );
  }
  const moveFocus = (event: React.KeyboardEvent<HTMLButtonElement>, index: number) => {
    const next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : undefined;
    if (next === undefined || next < 0 || next >= photos.length) return;
    event.preventDefault();
    const row = event.currentTarget.closest('ul');
    row?.querySelectorAll<HTMLButtonElement>('button')[next]?.focus();
    setCurrent(next);
  };
  return (
    <div className="gallery">
      <img
        className="gallery-main"
        data-testid="main-photo"
        src={main.medium}
        srcSet={`${main.medium} 800w, ${main.large} 1600w`}
        sizes="(min-width: 56rem) 32rem, 100vw"
        width={main.width}
        height={main.height}
        alt={photos.length > 1 ? `${title} — ${labels.photo[current]}` : title}
      />
      {photos.length > 1 && (
        <ul className="gallery-thumbs">
          {photos.map((p, i) => (
            <li key={p.id}>
              <button type="button" aria-pressed={i === current} aria-label={labels.show[i]} onClick={() => setCurrent(i)} onKeyDown={(e) => moveFocus(e, i)}>
                <img src={p.thumb} alt="" width={400} height={400} loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
