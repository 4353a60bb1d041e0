import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { MikroORM } from '@hm/db/orm';
import type { ApiMode, Clock, Context } from '@hm/domain/context';
import type { ImageStore } from '@hm/domain/images';

export type CreateContext = (req: FastifyRequest, transport: 'rest' | 'trpc') => Context;

export function contextFactory(deps: { orm: MikroORM; mode: ApiMode; clock: Clock; publicUrl: string; images: ImageStore }): CreateContext {
  return (req, transport) => ({
    orm: deps.orm,
    mode: deps.mode,
    clock: deps.clock,
    transport,
    requestId: String(req.id ?? randomUUID()),
    auth: req.apiAuth,
    sessionToken: sessionTokenOf(req),
    publicUrl: deps.publicUrl,
    images: deps.images,
  });
}

/** `X-User-Session`, when sent and not empty. */
export function sessionTokenOf(req: FastifyRequest): string | undefined {
  const session = req.headers['x-user-session'];
  return typeof session === 'string' && session !== '' ? session : undefined;
}
