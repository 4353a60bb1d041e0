import { CatalogTermSchema, CategorySchema, type Category, type Localized, type Marketplace } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { ValidationError, type FieldError } from '../../core/errors.js';
import type { CategoryImport, TermImport } from '../catalog-import.schema.js';

function checkNames(m: Marketplace, names: Localized, at: string, errors: FieldError[], required: boolean) {
  for (const lang of Object.keys(names)) {
    if (!m.locales.includes(lang)) errors.push({ location: `${at}.${lang}`, message: `"${lang}" is not one of the marketplace's languages (${m.locales.join(', ')}).`, value: lang });
  }
  if (required && !names[m.locales[0]!]) errors.push({ location: at, message: `A name in the default language (${m.locales[0]}) is required.`, value: names });
}

function duplicates<T>(rows: T[], key: (r: T) => string, at: (i: number) => string, what: string, errors: FieldError[]) {
  const seen = new Map<string, number>();
  rows.forEach((r, i) => {
    const k = key(r);
    if (seen.has(k)) errors.push({ location: at(i), message: `${what} "${k}" appears more than once (first at index ${seen.get(k)}).`, value: k });
    else seen.set(k, i);
  });
}

/**
 * Upserts categories by slug in one transaction. Parents may be in the file (in any order) or
 * already saved; a parent chain must not loop. Every problem is reported at once.
 */
export async function importCategories(em: EntityManager, m: Marketplace, rows: CategoryImport): Promise<{ created: number; updated: number }> {
  return em.transactional(async (tx) => {
    const errors: FieldError[] = [];
    rows.forEach((r, i) => checkNames(m, r.names, `${i}.names`, errors, true));
    duplicates(rows, (r) => r.slug, (i) => `${i}.slug`, 'Slug', errors);

    const existing = await tx.find(CategorySchema, {});
    const bySlug = new Map<string, Category>(existing.map((c) => [c.slug, c]));
    const parentOf = new Map<string, string | undefined>(existing.map((c) => [c.slug, existing.find((p) => p.id === c.parentId)?.slug]));
    for (const r of rows) parentOf.set(r.slug, r.parent);
    rows.forEach((r, i) => {
      if (r.parent && !parentOf.has(r.parent)) errors.push({ location: `${i}.parent`, message: `No category "${r.parent}" in the file or the marketplace.`, value: r.parent });
      // walk up from this row: reaching itself again means a loop
      const seen = new Set([r.slug]);
      for (let p = r.parent; p; p = parentOf.get(p)) {
        if (seen.has(p)) {
          errors.push({ location: `${i}.parent`, message: `Parent chain of "${r.slug}" loops back through "${p}".`, value: r.parent });
          break;
        }
        seen.add(p);
      }
    });
    if (errors.length) throw new ValidationError(errors);

    let created = 0;
    for (const r of rows) {
      const c = bySlug.get(r.slug);
      if (c) {
        c.names = r.names;
        c.position = r.position;
      } else {
        bySlug.set(r.slug, tx.create(CategorySchema, { marketplaceId: m.id, slug: r.slug, names: r.names, position: r.position, parentId: null }));
        created++;
      }
    }
    await tx.flush(); // ids exist for new categories before parents are pointed at them
    for (const r of rows) bySlug.get(r.slug)!.parentId = r.parent ? bySlug.get(r.parent)!.id : null;
    await tx.flush();
    return { created, updated: rows.length - created };
  });
}

/** Upserts terms by (kind, slug) in one transaction; kinds and languages must be the marketplace's. */
export async function importTerms(em: EntityManager, m: Marketplace, rows: TermImport): Promise<{ created: number; updated: number }> {
  return em.transactional(async (tx) => {
    const errors: FieldError[] = [];
    const kinds = m.termKinds.map((k) => k.key);
    rows.forEach((r, i) => {
      if (!kinds.includes(r.kind)) errors.push({ location: `${i}.kind`, message: `Not one of the marketplace's term kinds (${kinds.join(', ') || 'none'}).`, value: r.kind });
      checkNames(m, r.names, `${i}.names`, errors, true);
      checkNames(m, r.descriptions, `${i}.descriptions`, errors, false);
    });
    duplicates(rows, (r) => `${r.kind}/${r.slug}`, (i) => `${i}.slug`, 'Term', errors);
    if (errors.length) throw new ValidationError(errors);

    const existing = await tx.find(CatalogTermSchema, {});
    const byKey = new Map(existing.map((t) => [`${t.kind}/${t.slug}`, t]));
    let created = 0;
    for (const r of rows) {
      const t = byKey.get(`${r.kind}/${r.slug}`);
      if (t) {
        t.names = r.names;
        t.descriptions = r.descriptions;
      } else {
        tx.create(CatalogTermSchema, { marketplaceId: m.id, kind: r.kind, slug: r.slug, names: r.names, descriptions: r.descriptions });
        created++;
      }
    }
    await tx.flush();
    return { created, updated: rows.length - created };
  });
}
