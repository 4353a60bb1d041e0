import { p } from '@mikro-orm/core';
import { uuidv7 } from '../ids.js';

/** Columns every tenant-owned table shares. The `tenant` filter (see orm.ts) scopes on marketplaceId. */
export const tenantColumns = () => ({
  id: p.uuid().primary().onCreate(() => uuidv7()),
  marketplaceId: p.uuid(),
  createdAt: p.datetime().onCreate(() => new Date()),
});

export const updatedAt = () =>
  p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date());

/** A text per language: `{"en": "Shoes", "sv": "Skor"}`. */
export type Localized = Record<string, string>;
