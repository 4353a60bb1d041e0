import type { FastifyInstance } from 'fastify';
import type { AnyTRPCRouter } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { CreateContext } from './context.js';

/**
 * /trpc: the same router for the typed client. Mounted through the fetch adapter on our own route
 * so the response is a plain string that the idempotency hooks can store and replay.
 */
export async function registerTrpc(scope: FastifyInstance, router: AnyTRPCRouter, createContext: CreateContext) {
  scope.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/trpc/:path',
    handler: async (req, reply) => {
      const url = `http://${req.headers.host ?? 'localhost'}${req.url}`;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined && req.body !== null;
      const request = new Request(url, { method: req.method, headers, ...(hasBody ? { body: JSON.stringify(req.body) } : {}) });
      const response = await fetchRequestHandler({
        endpoint: '/trpc',
        req: request,
        router,
        createContext: () => createContext(req, 'trpc'),
        responseMeta: ({ errors }) => {
          const cause = errors[0]?.cause as { headers?: Record<string, string> } | undefined;
          return { headers: cause?.headers ?? {} };
        },
        onError: ({ error }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error.cause ?? error }, 'unexpected error in procedure');
        },
      });
      reply.code(response.status);
      response.headers.forEach((value, key) => {
        if (key !== 'content-length' && key !== 'transfer-encoding') void reply.header(key, value);
      });
      return reply.send(await response.text());
    },
  });
}
