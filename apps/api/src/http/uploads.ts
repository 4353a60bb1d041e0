import { errorCodes, type FastifyInstance } from 'fastify';
import type { MikroORM } from '@hm/db/orm';
import type { AuthenticatedKey, Clock } from '@hm/domain/core';
import { TRPCError } from '@trpc/server';
import { uploadsCaller } from '@hm/contract/uploads';
import { IMAGE_SIZES, MAX_IMAGE_BYTES, MEDIA_SIZES, mediaKey, sizeKey, tooLarge, type ImageSize, type ImageStore, type MediaSize } from '@hm/domain/images';
import { NotFoundError } from '@hm/domain/core';
import { problemHeaders } from '@hm/contract/problems';
import { keyRefusal, sessionRefusal, toProblem } from '@hm/contract/trpc';
import { logServerError, problem, refuse, sendProblem } from './problem.js';
import { sessionTokenOf, type CreateContext } from './context.js';
import { clientAborted } from './framework-errors.js';
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
  // Up to 20 MiB per photo. The key is checked from the headers here; the session once, by the upload
  // procedure, before it reads a byte of the body (a stranger's upload is refused unread, and the
  // upload pays one session check, not two).
  scope.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'POST') return; // image downloads need no key
    reply.header('Cache-Control', PRIVATE_CACHE_CONTROL);
    const refusal = keyRefusal('session', req.apiAuth);
    if (refusal) return refuse(req, reply, refusal);
    if (Number(req.headers['content-length'] ?? 0) > MAX_IMAGE_BYTES) return refuse(req, reply, tooLarge());
    // With an Idempotency-Key the body is gathered before the procedure runs (below): the session is
    // checked here too, so a stranger's body is still refused unread.
    if (req.headers['idempotency-key'] !== undefined) {
      const session = await sessionRefusal(orm, req.apiAuth as AuthenticatedKey, sessionTokenOf(req), clock.now());
      if (session) return refuse(req, reply, session);
    }
  });

  scope.removeAllContentTypeParsers();
  // The body is not gathered here: the upload reads it as a stream and writes it to the image store
  // as it arrives, stopping at the first chunk past 20 MiB (413) — a chunked body has no Content-Length.
  // With an Idempotency-Key the body is gathered first (up to the same cap): its key is claimed with
  // a fingerprint of the whole body before the upload runs, so nothing is stored for a reused key.
  scope.addContentTypeParser('*', (req, payload, done) => {
    if (req.headers['idempotency-key'] === undefined) return done(null, payload);
    gather(payload).then(
      (bytes) => done(null, bytes),
      (e: Error) => done(e, undefined),
    );
  });

  scope.post<{ Params: { id: string } }>('/me/listings/:id/images', async (req, reply) => {
    if (!UUID.test(req.params.id)) return refuse(req, reply, new NotFoundError('This listing'));
    const body = (req.body as AsyncIterable<Buffer> | undefined) ?? noBytes();
    const length = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    try {
      const image = await uploadsCaller(createContext(req, 'rest')).listingImage({ id: req.params.id, body, length });
      return reply.code(202).type('application/json').send(JSON.stringify(image));
    } catch (e) {
      // the client went away mid-body (the store's put failed with it): no one is left to answer, logged as such
      const gone = req.raw.errored as NodeJS.ErrnoException | null;
      if (gone && clientAborted(gone, req.raw)) throw gone;
      const p = toProblem(e as TRPCError, { auth: 'session', openapi: { method: 'POST', path: '/me/listings/{id}/images' } }, { id: req.params.id });
      logServerError(req.log, e as Error, 'photo upload failed');
      const cause = e instanceof TRPCError ? e.cause : e;
      if (!req.raw.complete) reply.header('Connection', 'close'); // refused before the body's end: read no more of it
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

async function* noBytes(): AsyncGenerator<Buffer> {}

/** A whole body, refused (413) at the first chunk past the cap. */
async function gather(payload: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of payload) {
    received += chunk.length;
    if (received > MAX_IMAGE_BYTES) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, received);
}
