import { catalogTermsRouter, categoriesRouter } from './catalog/catalog.router.js';
import { marketplaceRouter } from './marketplace/marketplace.router.js';
import { locationsRouter } from './locations/locations.router.js';
import { emailVerificationsRouter, passwordResetsRouter, sessionsRouter, usersRouter } from './accounts/accounts.router.js';
import { meRouter } from './me.router.js';
import { testHelpersRouter } from './test-helpers/test-helpers.router.js';
import { listingsRouter } from './listing-search/listing-search.router.js';
import { pagesRouter } from './pages/pages.router.js';
import { newsletterRouter } from './newsletter/newsletter.router.js';
import { eventsRouter } from './events/events.router.js';
import { router, setMetaLookup, type Meta } from './trpc.js';
// the flows fill the effect slots the modules' machines name (an order move needs them)
import '@hm/domain/flows';

/** The one public router: served as REST at /v1 (trpc-to-openapi) and typed at /trpc. */
export const appRouter = router({
  marketplace: marketplaceRouter,
  locations: locationsRouter,
  categories: categoriesRouter,
  catalogTerms: catalogTermsRouter,
  listings: listingsRouter,
  users: usersRouter,
  sessions: sessionsRouter,
  emailVerifications: emailVerificationsRouter,
  passwordResets: passwordResetsRouter,
  me: meRouter,
  pages: pagesRouter,
  newsletter: newsletterRouter,
  events: eventsRouter,
  testHelpers: testHelpersRouter,
});

export type AppRouter = typeof appRouter;

setMetaLookup((path) => (appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>)[path]?._def.meta);
