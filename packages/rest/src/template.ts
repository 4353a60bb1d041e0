/**
 * The one parser of OpenAPI path templates (`/me/listings/{id}/images`): the route table matches
 * requests with it, the strict-bodies walk and the input checks read its parameter names, and the
 * tests build URLs from it.
 */
export type Segment = { kind: 'static'; text: string } | { kind: 'param'; name: string };

export interface PathTemplate {
  /** as written in the OpenAPI meta: `/me/listings/{id}` */
  readonly template: string;
  readonly segments: readonly Segment[];
  /** the parameters' names, in order */
  readonly params: readonly string[];
  /**
   * A request path (percent-encoded, as sent; one trailing slash allowed) against the template:
   * undefined when it does not match, else each parameter percent-decoded once. A parameter that is
   * not valid percent-encoded UTF-8 is `malformed` (its name), never a thrown URIError.
   */
  match(path: string): PathMatch | undefined;
  /** The template with each parameter's value in its place, percent-encoded (`encodeURIComponent`) unless `encode` says otherwise. */
  fill(values: Record<string, string>, encode?: (value: string) => string): string;
}

export type PathMatch = { params: Record<string, string>; malformed?: undefined } | { params?: undefined; malformed: string };

const PARAM = /^\{([^{}/]+)\}$/;

export function parseTemplate(template: string): PathTemplate {
  if (!template.startsWith('/')) throw new Error(`A path template starts with "/": ${template}`);
  const segments: Segment[] = template
    .slice(1)
    .split('/')
    .map((part) => {
      const name = PARAM.exec(part)?.[1];
      if (name) return { kind: 'param', name };
      if (part.includes('{') || part.includes('}')) throw new Error(`A path parameter is a whole segment ({name}): ${template}`);
      return { kind: 'static', text: part };
    });
  const params = segments.flatMap((s) => (s.kind === 'param' ? [s.name] : []));
  if (new Set(params).size !== params.length) throw new Error(`A path parameter is named twice: ${template}`);
  return {
    template,
    segments,
    params,
    match: (path) => matchSegments(segments, path),
    fill: (values, encode = encodeURIComponent) =>
      `/${segments
        .map((s) => {
          if (s.kind === 'static') return s.text;
          const value = values[s.name];
          if (value === undefined) throw new Error(`No value for {${s.name}} of ${template}`);
          return encode(value);
        })
        .join('/')}`,
  };
}

function matchSegments(segments: readonly Segment[], path: string): PathMatch | undefined {
  if (path.charCodeAt(0) !== 0x2f) return undefined;
  const parts = path.slice(1).split('/');
  if (parts.length === segments.length + 1 && parts[parts.length - 1] === '') parts.pop(); // one trailing slash
  if (parts.length !== segments.length) return undefined;
  let params: Record<string, string> | undefined;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if (segment.kind === 'static') {
      if (part !== segment.text) return undefined;
      continue;
    }
    if (part === '') return undefined;
    params ??= {};
    params[segment.name] = part;
  }
  if (!params) return { params: {} };
  for (const name in params) {
    const raw = params[name]!;
    if (!raw.includes('%')) continue;
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      return { malformed: name };
    }
  }
  return { params };
}
