import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { MikroORM } from '@hm/db/orm';
import type { ApiMode, Context, Ports } from '@hm/domain/context';

export type CreateContext = (req: FastifyRequest, transport: 'rest' | 'trpc') => Context;

export function contextFactory(deps: { orm: MikroORM; mode: ApiMode; ports: Ports; publicUrl: string }): CreateContext {
  return (req, transport) => {
    const session = req.headers['x-user-session'];
    return {
      ...deps.ports,
      orm: deps.orm,
      mode: deps.mode,
      transport,
      requestId: String(req.id ?? randomUUID()),
      auth: req.apiAuth,
      sessionToken: typeof session === 'string' && session !== '' ? session : undefined,
      publicUrl: deps.publicUrl,
    };
  };
}
