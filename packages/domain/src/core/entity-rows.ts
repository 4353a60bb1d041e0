import type { EntityManager } from '@hm/db/orm';

type Row = Record<string, unknown>;

/** `snake_case` column → `camelCase` property, as the ORM's naming strategy names them. */
const propertyOf = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** An entity's columns, as a select list: its properties, `camelCase` → `snake_case` (no columns the entity does not read, such as a listing's search columns). */
export const columnsOf = (schema: { meta: { properties: object } }): string =>
  Object.keys(schema.meta.properties)
    .map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))
    .join(', ');

/**
 * Rows → entity-shaped objects: the entity's properties only (a listing's search columns are not
 * properties); int8 columns read as numbers where the entity says `p.bigint('number')` (pg hands
 * int8 over as text); timestamps as Dates, parsed as the ORM parses them (its connection reads them
 * as text). Every timestamp property of these entities is named `…At`.
 */
export function entityRows<T>(schema: { meta: { properties: object } }, numbers: string[] = []) {
  const properties = new Set(Object.keys(schema.meta.properties));
  const asNumber = new Set(numbers);
  const names = new Map<string, string | null>();
  return (em: EntityManager, rows: Row[]): T[] => {
    const platform = em.getPlatform();
    return rows.map((row) => {
      const out: Row = {};
      for (const column in row) {
        let name = names.get(column);
        if (name === undefined) {
          const p = propertyOf(column);
          names.set(column, (name = properties.has(p) ? p : null));
        }
        if (name === null) continue;
        const v = row[column];
        out[name] = v === null ? v : asNumber.has(name) ? Number(v) : typeof v === 'string' && name.endsWith('At') ? platform.parseDate(v) : v;
      }
      return out as T;
    });
  };
}
