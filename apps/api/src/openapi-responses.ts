/**
 * How open the document's response objects are: published open (v1 adds response fields), checked
 * closed in our own tests (an undeclared field still fails them).
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every schema a response body can reach, in place: inline ones under paths and the components they refer to. */
export function responseSchemas(doc: Json): Json[] {
  const out: Json[] = [];
  const seen = new Set<string>();
  const visit = (schema: unknown) => {
    if (Array.isArray(schema)) return schema.forEach(visit);
    if (!schema || typeof schema !== 'object') return;
    const ref = (schema as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.split('/').pop()!;
      if (!seen.has(name)) {
        seen.add(name);
        visit(doc.components.schemas[name]);
      }
      return;
    }
    if ((schema as Json).type === 'object' || (schema as Json).properties) out.push(schema as Json);
    Object.values(schema).forEach(visit);
  };
  for (const item of Object.values(doc.paths as Json))
    for (const method of METHODS)
      for (const response of Object.values((item as Json)[method]?.responses ?? {}) as Json[]) for (const media of Object.values(response.content ?? {}) as Json[]) visit(media.schema);
  return out;
}

/**
 * Within v1 responses gain fields (spec: Versioning), so no response object forbids unknown
 * properties: a client generated from this document must accept tomorrow's additions. zod writes
 * `additionalProperties: false` for every output object; it is taken off here. Requests stay strict.
 */
export function openResponses(doc: Json): Json {
  for (const schema of responseSchemas(doc)) if (schema.additionalProperties === false) delete schema.additionalProperties;
  return doc;
}

/**
 * The published document with every response object closed again (`additionalProperties: false`
 * where it declares properties and says nothing of others): what our own tests validate responses
 * against, so that a field the document does not declare is still caught. Problems (shared
 * `components.responses`) stay open: RFC 9457 allows extension members. A copy.
 */
export function strictResponses<T extends object>(doc: T): T {
  const copy = structuredClone(doc) as Json;
  for (const schema of responseSchemas(copy)) if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
  return copy as T;
}
