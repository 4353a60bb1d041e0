import { describe, expect, test } from 'vitest';
import { BLOCK_INPUTS, BLOCK_TYPES } from '@hm/domain/pages';
import { BLOCK_FIELDS, type BlockFieldKind } from './blocks';

type JsonSchema = { type?: string; enum?: unknown[]; items?: JsonSchema; properties?: Record<string, JsonSchema> };

/** The editor's kinds a field of the API's block schema may have: a plain value its own input, id lists comma-separated, anything nested as JSON. */
function kindsOf(p: JsonSchema): BlockFieldKind[] {
  if (p.enum) return ['select'];
  if (p.type === 'boolean') return ['check'];
  if (p.type === 'integer' || p.type === 'number') return ['number'];
  if (p.type === 'string') return ['line', 'text'];
  if (p.type === 'array' && p.items?.type === 'string') return ['ids'];
  return ['json'];
}

/**
 * The page editor's fields per block type (lib/blocks.ts) are written out by hand for their labels
 * and hints: they must be the API's block schema's (packages/domain pages.schema.ts), field for
 * field, so a field added there is not missing from the editor (nor one removed left in it).
 */
describe("the editor's block fields are the API's", () => {
  test('the same block types, in the same order', () => {
    expect(Object.keys(BLOCK_FIELDS)).toEqual([...BLOCK_TYPES]);
  });

  test.each([...BLOCK_TYPES])('%s: the same fields, each of a kind that fits, a select with the same choices', (type) => {
    const schema = BLOCK_INPUTS[type].toJSONSchema({ io: 'input', unrepresentable: 'any' }) as JsonSchema;
    const props = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name]) => name !== 'id' && name !== 'type'));
    const fields = BLOCK_FIELDS[type]!;
    expect(fields.map((f) => f.name).sort()).toEqual(Object.keys(props).sort());
    for (const f of fields) {
      const p = props[f.name]!;
      expect(kindsOf(p), `${type}.${f.name}`).toContain(f.kind);
      if (f.kind === 'select') expect(f.options, `${type}.${f.name}`).toEqual(p.enum);
    }
  });
});
