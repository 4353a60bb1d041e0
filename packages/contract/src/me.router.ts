import { getMe } from './accounts/procedures/get-me.js';
import { sendVerificationEmail } from './accounts/procedures/send-verification-email.js';
import { updateMe } from './accounts/procedures/update-me.js';
import { favoritesRouter } from './listing-search/listing-search.router.js';
import { myListingsRouter } from './listings/listings.router.js';
import { myConversationsRouter } from './messages/messages.router.js';
import { myOrdersRouter } from './orders/orders.router.js';
import { myPayoutsRouter } from './payouts/payouts.router.js';
import { router } from './trpc.js';

/**
 * `/v1/me…`: the signed-in user's own things, assembled from the modules that own them (above the
 * modules, so accounts needs none of them).
 */
export const meRouter = router({ get: getMe, update: updateMe, sendVerificationEmail, listings: myListingsRouter, favorites: favoritesRouter, orders: myOrdersRouter, conversations: myConversationsRouter, payouts: myPayoutsRouter });
