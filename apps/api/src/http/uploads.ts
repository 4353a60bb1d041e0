import type { FastifyInstance } from 'fastify';
import { TRPCError } from '@trpc/server';
import type { MikroORM } from '@hm/db/orm';
import type { AuthenticatedKey, Clock } from '@hm/domain/core';
import { uploadsCaller } from '@hm/contract/uploads';
import { IMAGE_SIZES, MAX_IMAGE_BYTES, MEDIA_SIZES, mediaKey, sizeKey, type ImageSize, type ImageStore, type MediaSize } from '@hm/domain/images';
import { problemHeaders } from '@hm/contract/problems';
import { keyRefusal, sessionRefusal, toProblem } from '@hm/contract/trpc';
import { logServerError, problem, refuse, sendProblem } from './problem.js';
import { sessionTokenOf, type CreateContext } from './context.js';
import { PRIVATE_CACHE_CONTROL } from './rest.js';

export interface UploadDeps {
  createContext: CreateContext;
  images: ImageStore;
  orm: MikroORM;
  clock: Clock;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Routes whose bodies are not JSON: the photo upload (raw bytes, any Content-Type: the type is
 * read from the bytes) and image downloads, listing photos and marketplace media (no key; immutable,
 * cached for a year).
 */
export function registerUploads(scope: FastifyInstance, { createContext, images, orm, clock }: UploadDeps) {
  // Up to 20 MiB per photo: who may upload is decided from the headers, before a byte of the body is read.
  scope.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'POST') return; // image downloads need no key
    reply.header('Cache-Control', PRIVATE_CACHE_CONTROL);
    const refusal = keyRefusal('session', req.apiAuth) ?? (await sessionRefusal(orm, req.apiAuth as AuthenticatedKey, sessionTokenOf(req), clock.now()));
    if (refusal) return refuse(req, reply, refusal);
  });

  scope.removeAllContentTypeParsers();
  // Fastify refuses a Content-Length over the limit before reading, and stops reading a chunked body once past it (413).
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES }, (_req, body, done) => done(null, body));

  scope.post<{ Params: { id: string } }>('/me/listings/:id/images', { bodyLimit: MAX_IMAGE_BYTES }, async (req, reply) => {
    if (!UUID.test(req.params.id)) return sendProblem(reply, problem('not_found', 'This listing was not found.'));
    const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (bytes.length === 0) {
      return sendProblem(reply, problem('validation_failed', 'Send the photo as the request body (JPEG, PNG or WebP bytes).', [{ location: 'body', message: 'Required.', value: null }]));
    }
    try {
      const image = await uploadsCaller(createContext(req, 'rest')).listingImage({ id: req.params.id, bytes });
      return reply.code(202).type('application/json').send(JSON.stringify(image));
    } catch (e) {
      const p = toProblem(e as TRPCError, { auth: 'session', openapi: { method: 'POST', path: '/me/listings/{id}/images' } }, { id: req.params.id });
      logServerError(req.log, e as Error, 'photo upload failed');
      const cause = e instanceof TRPCError ? e.cause : e;
      return sendProblem(reply, p, problemHeaders(cause));
    }
  });

  // Listing photos and marketplace media: no key; the id names the content, which never changes.
  const serve = (prefix: string, sizes: readonly string[], keyOf: (id: string, size: string) => string) =>
    scope.get<{ Params: { id: string; file: string } }>(`/${prefix}/:id/:file`, async (req, reply) => {
      const size = req.params.file.replace(/\.jpg$/, '');
      if (!UUID.test(req.params.id) || !req.params.file.endsWith('.jpg') || !sizes.includes(size)) {
        return sendProblem(reply, problem('not_found', `No such image. Files are ${sizes.map((s) => `${s}.jpg`).join(', ')}.`));
      }
      const id = req.params.id.toLowerCase();
      const etag = `"${id}-${size}"`;
      reply.header('Cache-Control', 'public, max-age=31536000, immutable').header('ETag', etag);
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      const object = await images.get(keyOf(id, size));
      if (!object) {
        reply.removeHeader('Cache-Control').removeHeader('ETag');
        return sendProblem(reply, problem('not_found', 'No such image (or it is still being processed).'));
      }
      return reply.type(object.contentType).send(object.body);
    });
  serve('images', IMAGE_SIZES, (id, size) => sizeKey(id, size as ImageSize));
  serve('media', MEDIA_SIZES, (id, size) => mediaKey(id, size as MediaSize));
}
