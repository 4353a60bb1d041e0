import { categoryRows, type CategoryRow } from '../categories.queries.js';
import type { CommandContext } from '../../core/context.js';
import { pickText, resolveLocale } from '../../core/locale.js';

export interface CategoryBody {
  id: string;
  name: string;
  slug: string;
  parent_id?: string;
  position: number;
}

/** All categories, depth first (each parent before its children, siblings by position), from plain rows (categories.queries.ts). */
export async function listCategories(ctx: CommandContext, locale: string | undefined): Promise<CategoryBody[]> {
  const lang = resolveLocale(ctx.marketplace, locale);
  const all = await categoryRows(ctx.em);
  const children = new Map<string | null, CategoryRow[]>();
  for (const c of all) {
    const list = children.get(c.parentId ?? null) ?? [];
    list.push(c);
    children.set(c.parentId ?? null, list);
  }
  const out: CategoryBody[] = [];
  const walk = (parent: string | null) => {
    for (const c of children.get(parent) ?? []) {
      out.push({
        id: c.id,
        name: pickText(c.names, lang, ctx.marketplace) ?? c.slug,
        slug: c.slug,
        ...(c.parentId ? { parent_id: c.parentId } : {}),
        position: c.position,
      });
      walk(c.id);
    }
  };
  walk(null);
  return out;
}
