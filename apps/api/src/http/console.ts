import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MikroORM } from '@hm/db/orm';
import { backOfficeRouter } from '@hm/contract/back-office';
import { registerConsoleFiles } from './console-files.js';
import { DomainError } from '@hm/contract/problems';
import { hashToken } from '@hm/domain/core';
import type { Meta } from '@hm/contract/trpc';
import type { ApiMode, Clock } from '@hm/domain/core';
import { authenticateOperator, OPERATOR_SESSION_MAX_MS } from '@hm/domain/operators';
import { addIdempotency, type IdempotencyOwner } from './idempotency.js';
import { operatorSessions, type KeyChanges } from './api-key-cache.js';
import { restRoutes } from '@hm/rest';
import { refuse } from './problem.js';
import { restForApi } from './rest.js';
import { registerTrpc } from './trpc.js';
import type { CreateContext } from './context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** /console/…: the operator session token, from `Authorization: Bearer` or the console cookie */
    operatorToken?: string;
    /** the token came from the cookie: writes must come from an allowed Origin */
    operatorCookie?: boolean;
  }
}

/** The back-office app's session cookie (httpOnly, SameSite=Strict, Secure in live mode), for /console only. */
export const CONSOLE_COOKIE = 'hm_console';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The answers that hand out an operator session: the cookie is set with them. */
const SIGN_INS = new Set(['/console/v1/sessions', '/console/v1/invitations/accept', '/console/trpc/sessions.create', '/console/trpc/invitations.accept']);

function cookieOf(req: FastifyRequest): string | undefined {
  for (const part of String(req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === CONSOLE_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

export interface ConsoleDeps {
  orm: MikroORM;
  mode: ApiMode;
  clock: Clock;
  createContext: CreateContext;
  /** origins the back-office app is served from (cookie-authenticated writes from any other are 403) */
  origins: string[];
  openapiJson: string;
  /** how long an operator session's check is reused in this process (the API key cache's time, ≤ 1 s; 0: never) */
  sessionCacheMs?: number;
  /** where the session cache hears of changes committed by any process (key-change-listener.ts) */
  keyChanges?: KeyChanges;
  /** Postgres directly (the idempotency lease), see AppDeps.directUrl */
  directUrl?: string;
}

/**
 * The back office's API (issue 26): REST at /console/v1 (the same dispatcher as /v1, its own OpenAPI
 * document) and tRPC at /console/trpc, both over the back office's router. Operators only: an API key
 * is 401 here, and an operator token is 401 on /v1 (it is no API key).
 */
export async function registerConsole(app: FastifyInstance, deps: ConsoleDeps) {
  // the operator session's rows by token hash, one statement, reused for up to a second
  const sessions = operatorSessions(deps.orm, deps.sessionCacheMs ?? 0, deps.keyChanges);
  const createContext: CreateContext = (req, transport) => ({
    ...deps.createContext(req, transport),
    auth: undefined,
    sessionToken: undefined,
    surface: 'console',
    operatorLookup: sessions.lookup,
    ...(req.operatorToken !== undefined ? { operatorToken: req.operatorToken } : {}),
  });
  const cookie = (token: string, maxAgeS: number) =>
    `${CONSOLE_COOKIE}=${token}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${maxAgeS}${deps.mode === 'live' ? '; Secure' : ''}`;

  await app.register(
    async (scope) => {
      // callback hooks, not async ones: every console request passes here (an async hook costs a promise and a turn each)
      scope.addHook('onRequest', (req, reply, done) => {
        reply.header('Cache-Control', 'no-store');
        if (req.headers.authorization !== undefined) {
          const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization.trim())?.[1];
          req.operatorToken = bearer ?? req.headers.authorization;
          return done();
        }
        const fromCookie = cookieOf(req);
        if (fromCookie === undefined) return done();
        req.operatorToken = fromCookie;
        req.operatorCookie = true;
        // A cookie goes with every request the browser makes to us, whoever's page asked for it: a
        // change made with it must come from the back-office app's own pages.
        if (!SAFE.has(req.method)) {
          const origin = req.headers.origin;
          const own = `${req.protocol}://${req.headers.host ?? ''}`;
          if (origin === undefined || (origin !== own && !deps.origins.includes(origin))) {
            refuse(req, reply, new DomainError('forbidden', 'A change made with the console cookie must come from the back-office app (its Origin); send the token as "Authorization: Bearer ops_…" otherwise.'));
            return; // answered: the hooks stop here
          }
        }
        done();
      });
      scope.addHook('onSend', (req, reply, payload, done) => {
        // A change (a sign-out, a role, a removed operator…) shows at once in this process: the
        // marketplace's remembered sessions go before the answer leaves (other processes hear it at commit).
        if (!SAFE.has(req.method) && req.operatorToken !== undefined) {
          const marketplaceId = sessions.marketplaceOf(hashToken(req.operatorToken));
          if (marketplaceId !== undefined) sessions.forget(marketplaceId);
        }
        const path = req.url.split('?')[0]!;
        if (SIGN_INS.has(path) && reply.statusCode < 300 && typeof payload === 'string') {
          const token = /"(ops_[A-Za-z0-9_-]+)"/.exec(payload)?.[1];
          if (token) reply.header('Set-Cookie', cookie(token, OPERATOR_SESSION_MAX_MS / 1000));
        }
        if (req.method === 'DELETE' && path === '/console/v1/sessions/current' && reply.statusCode === 204) reply.header('Set-Cookie', cookie('', 0));
        done(null, payload);
      });

      // Idempotency-Key as on /v1, the records the operator's (replayed only while the session it was made in works)
      const operatorOwner = async (req: FastifyRequest): Promise<IdempotencyOwner | undefined> => {
        const token = req.operatorToken;
        if (token === undefined) return undefined;
        const signedIn = await authenticateOperator(deps.orm, token, deps.clock.now(), sessions.lookup).catch(() => undefined);
        if (!signedIn) return undefined;
        return {
          marketplaceId: signedIn.marketplace.id,
          scope: `operator:${signedIn.operator.id}`,
          secret: token,
          user: signedIn.operator.id,
          replay: async () => ((await authenticateOperator(deps.orm, token, deps.clock.now(), sessions.lookup).catch(() => undefined)) ? 'ok' : 'fresh'),
        };
      };
      const rest = restForApi(backOfficeRouter, restRoutes<Meta>(backOfficeRouter), deps.orm, deps.clock, createContext);
      await scope.register(
        async (v1) => {
          rest.addHooks(v1);
          addIdempotency(v1, deps.orm, deps.clock, operatorOwner, deps.directUrl);
          v1.get('/openapi.json', async (_req, reply) => reply.type('application/json').header('Cache-Control', 'no-cache').send(deps.openapiJson));
          await v1.register(async (files) => registerConsoleFiles(files, { orm: deps.orm, clock: deps.clock, createContext }));
          rest.addRoute(v1);
        },
        { prefix: '/v1' },
      );
      await scope.register(async (trpc) => {
        addIdempotency(trpc, deps.orm, deps.clock, operatorOwner, deps.directUrl);
        await registerTrpc(trpc, backOfficeRouter, createContext, '/console/trpc');
      });
    },
    { prefix: '/console' },
  );
}
