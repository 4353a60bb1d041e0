import { createCallerFactory, router, setConsoleMetaLookup, type Meta } from '../trpc.js';
import type { Context } from '@hm/domain/core';
import { sessions, invitations, me } from './routers/sessions.js';
import { attention } from './routers/attention.js';
import { listings } from './routers/listings.js';
import { orders } from './routers/orders.js';
import { support, conversations } from './routers/support.js';
import { users } from './routers/users.js';
import { operators, auditRouter } from './routers/team.js';
import { keys, settings } from './routers/settings.js';
import { vouchers } from './routers/vouchers.js';
import { rates } from './routers/rates.js';
import { pages, media } from './routers/content.js';
import { newsletter } from './routers/newsletter.js';
import { payouts } from './routers/payouts.js';
import { sites } from './routers/sites.js';
import { webhooksRouter as webhooks } from './webhooks.router.js';
// the flows fill the effect slots the modules' machines name (a listing's approval emails the seller)
import '@hm/domain/flows';

/**
 * The back office's API: tRPC at /console/trpc for the app, REST at /console/v1 (its own OpenAPI
 * document); none of it under /v1. One file per area in routers/, listed here.
 */
export const backOfficeRouter = router({
  sessions,
  invitations,
  me,
  attention,
  listings,
  orders,
  support,
  conversations,
  users,
  vouchers,
  rates,
  pages,
  media,
  newsletter,
  payouts,
  operators,
  keys,
  settings,
  sites,
  webhooks,
  audit: auditRouter,
});
export type BackOfficeRouter = typeof backOfficeRouter;

setConsoleMetaLookup((path) => (backOfficeRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>)[path]?._def.meta);

const createCaller = createCallerFactory(backOfficeRouter);
/** In-process client (tests). */
export function backOfficeCaller(ctx: Context) {
  return createCaller(ctx);
}
