import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, updatedAt, type Localized } from './common.js';

/** A page's content as the editor wrote it: blocks hold references (ids), filled with live data when read. */
export interface PageContent {
  title: string;
  description: string;
  share_image_id?: string;
  blocks: Record<string, unknown>[];
}

/** One content page in one language: the draft and, once published, the copy the shop shows. */
export const PageSchema = defineEntity({
  name: 'Page',
  tableName: 'pages',
  properties: {
    ...tenantColumns(),
    slug: p.string(),
    locale: p.string(),
    draft: p.json<PageContent>(),
    published: p.json<PageContent>().nullable(),
    publishedAt: p.datetime().nullable(),
    /** SHA-256 of the preview token */
    previewTokenHash: p.string().nullable(),
    previewExpiresAt: p.datetime().nullable(),
    updatedAt: updatedAt(),
  },
});
export type Page = InferEntity<typeof PageSchema>;

/** An image uploaded by an operator for pages (ImageRef); its sizes are in the image store. */
export const MediaSchema = defineEntity({
  name: 'Media',
  tableName: 'media',
  properties: {
    ...tenantColumns(),
    alt: p.text(),
    /** alt text per language; `alt` is the default language's and the fallback */
    alts: p.json<Localized>().nullable(),
    format: p.string(),
    bytes: p.integer(),
    width: p.integer(),
    height: p.integer(),
  },
});
export type Media = InferEntity<typeof MediaSchema>;
