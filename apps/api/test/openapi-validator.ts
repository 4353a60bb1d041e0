import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { parseTemplate, type PathTemplate } from '@hm/rest';
import { strictResponses } from '../src/openapi-responses.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Compiled {
  doc: Json;
  ajv: Ajv2020;
  templates: { method: string; template: string; parsed: PathTemplate }[];
  /** compiled once per schema pointer: ajv.validate on a fresh object compiles it again every call */
  validator(ref: string): ValidateFunction;
}

/** The two published documents: the API's, and the back office's (issue 26). */
export type Surface = '/v1' | '/console/v1';
const cache = new WeakMap<FastifyInstance, Map<Surface, Compiled>>();
/** The document a URL answers to. */
export const surfaceOf = (url: string): Surface => (url.startsWith('/console/v1') ? '/console/v1' : '/v1');

async function compiled(app: FastifyInstance, base: Surface = '/v1'): Promise<Compiled> {
  let byBase = cache.get(app);
  if (!byBase) cache.set(app, (byBase = new Map()));
  let c = byBase.get(base);
  if (c) return c;
  // the published document leaves responses open to new fields (versioning); ours must declare every field they send
  const doc = strictResponses((await app.inject({ method: 'GET', url: `${base}/openapi.json` })).json() as Json);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: 'openapi.json', ...doc, openapi: undefined, $schema: undefined }, 'openapi.json');
  const templates = Object.entries(doc.paths as Json).flatMap(([template, ops]) =>
    Object.keys(ops as Json)
      .filter((key) => key !== 'servers')
      .map((method) => ({
        method: method.toUpperCase(),
        template,
        parsed: parseTemplate(template),
      })),
  );
  const validators = new Map<string, ValidateFunction>();
  const validator = (ref: string) => {
    let v = validators.get(ref);
    if (!v) validators.set(ref, (v = ajv.compile({ $ref: ref })));
    return v;
  };
  c = { doc, ajv, templates, validator };
  byBase.set(base, c);
  return c;
}

const pointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** The document's JSON request body schema of an operation, compiled (undefined when it takes no JSON body). */
export async function requestBodyValidator(app: FastifyInstance, method: string, template: string, base: Surface = '/v1'): Promise<ValidateFunction | undefined> {
  const { doc, validator } = await compiled(app, base);
  if (!doc.paths[template]?.[method.toLowerCase()]?.requestBody?.content?.['application/json']) return undefined;
  return validator(`openapi.json#/paths/${pointer(template)}/${method.toLowerCase()}/requestBody/content/application~1json/schema`);
}

/**
 * Every /v1 and /console/v1 response the tests see must be documented (in its own document): its status for that operation, its content
 * type, and its body valid against the document's schema (JSON Schema 2020-12 through ajv), closed
 * by strictResponses: no field the document does not declare.
 * Responses to undocumented routes (404/405 problems) must match the Problem schema.
 */
export function validateResponse(app: FastifyInstance, method: string, url: string, res: LightMyRequestResponse): Promise<void> {
  const base = surfaceOf(url);
  return compiled(app, base).then(({ doc, ajv, templates, validator }) => {
    const path = url.split('?')[0]!.slice(base.length);
    const op = templates.find((t) => t.method === method.toUpperCase() && t.parsed.match(path) !== undefined);
    const contentType = String(res.headers['content-type'] ?? '').split(';')[0];
    if (!op) {
      expect(res.statusCode, `${method} ${url} is undocumented, so it must fail`).toBeGreaterThanOrEqual(400);
      expect(contentType).toBe('application/problem+json');
      const problem = validator('openapi.json#/components/schemas/Problem');
      expect(problem(res.json()), `problem body of ${method} ${url}: ${ajv.errorsText(problem.errors)}`).toBe(true);
      return;
    }
    let response = doc.paths[op.template][op.method.toLowerCase()].responses[String(res.statusCode)];
    expect(response, `${method} ${op.template} does not document status ${res.statusCode}: ${res.body.slice(0, 300)}`).toBeDefined();
    let responsePointer = `openapi.json#/paths/${pointer(op.template)}/${op.method.toLowerCase()}/responses/${res.statusCode}`;
    if (response.$ref) {
      responsePointer = `openapi.json${response.$ref}`;
      response = doc.components.responses[String(response.$ref).split('/').pop()!];
    }
    if (!response.content) {
      expect(res.body, `${method} ${url} documents no body`).toBe('');
      return;
    }
    expect(Object.keys(response.content), `${method} ${url} content type`).toContain(contentType);
    if (!contentType!.endsWith('json')) return; // bytes (images): the type is what can be checked
    const schema = validator(`${responsePointer}/content/${pointer(contentType!)}/schema`);
    expect(schema(res.json()), `${method} ${url} → ${res.statusCode} body does not match the document: ${ajv.errorsText(schema.errors)}\n${res.body.slice(0, 500)}`).toBe(true);
  });
}
