import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TRPCError } from '@trpc/server';
import type { MikroORM } from '@hm/db/orm';
import type { Clock } from '@hm/domain/core';
import { backOfficeCaller } from '@hm/contract/back-office';
import { DomainError, problemHeaders } from '@hm/contract/problems';
import { toProblem, type Meta } from '@hm/contract/trpc';
import { MAX_IMAGE_BYTES } from '@hm/domain/images';
import { authenticateOperator } from '@hm/domain/operators';
import { logServerError, problem, refuse, sendProblem } from './problem.js';
import { queryTextErrors } from '@hm/rest';
import type { CreateContext } from './context.js';

export interface ConsoleFileDeps {
  orm: MikroORM;
  clock: Clock;
  createContext: CreateContext;
}

/** The newsletter export's columns, in this order (docs/decisions.md). */
export const NEWSLETTER_CSV_COLUMNS = ['email', 'first_name', 'locale', 'source', 'subscribed_at', 'contact_provider', 'contact_id', 'contact_added_at'] as const;

/**
 * A CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a leading = + - @ or
 * tab/CR gets a ' first so a spreadsheet shows the text instead of running it as a formula.
 */
export function csvField(value: string | null | undefined): string {
  let v = value ?? '';
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/**
 * The back office's routes that are not JSON procedures: the media upload (the body is the image's
 * bytes, like /v1's photo upload) and the newsletter export as a CSV download. Both call the back
 * office's own procedures in-process, so auth, roles, tenancy, audit and problems are the same.
 */
export function registerConsoleFiles(scope: FastifyInstance, { orm, clock, createContext }: ConsoleFileDeps) {
  /** the procedure's problem, its fields where this route takes them (`alt` in the query, the image as the body) */
  const fail = (req: FastifyRequest, reply: FastifyReply, e: unknown, meta: Meta, input: unknown) => {
    logServerError(req.log, e as Error, 'console file route failed');
    const cause = e instanceof TRPCError ? e.cause : e;
    const p = toProblem(e as TRPCError, meta, input);
    const errors = p.errors?.map((f) => ({ ...f, location: f.location.replace(/^body\.(alts?)\b/, 'query.$1').replace(/^body\.file$/, 'body') }));
    return sendProblem(reply, { ...p, ...(errors ? { errors } : {}) }, problemHeaders(cause));
  };

  // Up to 20 MiB per image: who may upload is decided from the headers, before a byte of the body is read.
  scope.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'POST') return;
    const signedIn = await authenticateOperator(orm, req.operatorToken, clock.now()).catch((e: unknown) => {
      if (e instanceof DomainError) return e;
      throw e;
    });
    if (signedIn instanceof DomainError) return refuse(req, reply, signedIn);
    if (signedIn.operator.role !== 'admin') return refuse(req, reply, new DomainError('forbidden', 'Viewers may read everything and change nothing; ask an admin of the team.'));
  });
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES }, (_req, body, done) => done(null, body));

  const uploadMeta: Meta = { auth: 'operator', write: true, openapi: { method: 'POST', path: '/media' } };
  scope.post<{ Querystring: Record<string, unknown> }>('/media', { bodyLimit: MAX_IMAGE_BYTES }, async (req, reply) => {
    const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const query = req.query;
    const errors = [
      ...(bytes.length === 0 ? [{ location: 'body', message: 'Send the image as the request body (JPEG, PNG or WebP bytes).', value: null }] : []),
      ...Object.keys(query).filter((k) => k !== 'alt' && !/^alts\.[^.]+$/.test(k)).map((k) => ({ location: `query.${k}`, message: 'Unknown parameter: `alt` and `alts.<language>` only.', value: query[k] })),
      ...queryTextErrors(query), // NUL or a lone surrogate in `alt`: a problem at its field, never sent to the database
    ];
    if (errors.length) return sendProblem(reply, problem('validation_failed', errors.length === 1 ? `${errors[0]!.location}: ${errors[0]!.message}` : `The request has ${errors.length} invalid fields; see errors.`, errors));
    const alts = Object.fromEntries(Object.entries(query).filter(([k]) => k.startsWith('alts.')).map(([k, v]) => [k.slice(5), v]));
    const input = { bytes, alt: query.alt, ...(Object.keys(alts).length ? { alts } : {}) };
    try {
      const out = await backOfficeCaller(createContext(req, 'rest')).media.upload(input as never);
      return reply.code(201).type('application/json').send(JSON.stringify(out));
    } catch (e) {
      return fail(req, reply, e, uploadMeta, { alt: query.alt, ...(Object.keys(alts).length ? { alts } : {}) });
    }
  });

  const exportMeta: Meta = { auth: 'operator', openapi: { method: 'GET', path: '/newsletter/subscribers.csv' } };
  scope.get<{ Querystring: Record<string, unknown> }>('/newsletter/subscribers.csv', async (req, reply) => {
    const unknown = Object.keys(req.query);
    if (unknown.length) {
      const errors = unknown.map((k) => ({ location: `query.${k}`, message: 'This operation takes no parameters.', value: req.query[k] }));
      return sendProblem(reply, problem('validation_failed', errors.length === 1 ? `${errors[0]!.location}: ${errors[0]!.message}` : `The request has ${errors.length} invalid fields; see errors.`, errors));
    }
    try {
      const out = await backOfficeCaller(createContext(req, 'rest')).newsletter.export({});
      const rows = out.items.map((i) => [i.email, i.first_name, i.locale, i.source, i.subscribed_at, i.contact?.provider, i.contact?.id, i.contact?.added_at].map(csvField).join(','));
      const csv = `${[NEWSLETTER_CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
      return reply.type('text/csv; charset=utf-8').header('Content-Disposition', 'attachment; filename="newsletter-subscribers.csv"').send(csv);
    } catch (e) {
      return fail(req, reply, e, exportMeta, {});
    }
  });
}
