import type { FastifyInstance } from 'fastify';
import type { AnyTRPCRouter } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { parseClientJson } from './client-input.js';
import type { CreateContext } from './context.js';
import { logServerError } from './problem.js';
import { bodyTag, noneMatchHits } from '@hm/rest';
import { PRIVATE_CACHE_CONTROL } from './rest.js';

/**
 * /trpc: the same router for the typed client. Mounted through the fetch adapter on our own route
 * so the response is a plain string that the idempotency hooks can store and replay.
 */
export async function registerTrpc(scope: FastifyInstance, router: AnyTRPCRouter, createContext: CreateContext, endpoint = '/trpc') {
  // A typed server-to-server transport carrying sessions and personal data: nothing here is for caches.
  scope.addHook('onRequest', async (_req, reply) => {
    reply.header('Cache-Control', PRIVATE_CACHE_CONTROL);
  });

  scope.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/trpc/:path',
    handler: async (req, reply) => {
      // A query's input is JSON in the URL: the same depth and text rules as a body (throws a problem).
      const input = (req.query as { input?: unknown }).input;
      if (typeof input === 'string') parseClientJson(input, 'The input query parameter', 'query.input');
      const url = `http://${req.headers.host ?? 'localhost'}${req.url}`;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined && req.body !== null;
      const request = new Request(url, { method: req.method, headers, ...(hasBody ? { body: JSON.stringify(req.body) } : {}) });
      const response = await fetchRequestHandler({
        endpoint,
        req: request,
        router,
        createContext: () => createContext(req, 'trpc'),
        responseMeta: ({ errors }) => {
          const cause = errors[0]?.cause as { headers?: Record<string, string> } | undefined;
          return { headers: cause?.headers ?? {} };
        },
        onError: ({ error }) => logServerError(req.log, error, 'unexpected error in procedure'),
      });
      reply.code(response.status);
      response.headers.forEach((value, key) => {
        if (key !== 'content-length' && key !== 'transfer-encoding') void reply.header(key, value);
      });
      const body = await response.text();
      // A query's answer carries a strong ETag: the storefront's server revalidates what it keeps (If-None-Match → 304).
      if (req.method === 'GET' && response.status === 200) {
        const tag = bodyTag(body);
        reply.header('ETag', tag);
        if (noneMatchHits(req.headers['if-none-match'], tag)) return reply.code(304).removeHeader('content-type').send();
      }
      return reply.send(body);
    },
  });
}
