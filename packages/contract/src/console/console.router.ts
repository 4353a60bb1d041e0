import type { Context } from '@hm/domain/core';
import { createCallerFactory, router } from '../trpc.js';
import { createMarketplaceProcedure } from './procedures/create-marketplace.js';
import { updateMarketplaceProcedure } from './procedures/update-marketplace.js';
import { getMarketplaceProcedure } from './procedures/get-marketplace.js';
import { listMarketplacesProcedure } from './procedures/list-marketplaces.js';
import { createKeyProcedure } from './procedures/create-key.js';
import { listKeysProcedure } from './procedures/list-keys.js';
import { revokeKeyProcedure } from './procedures/revoke-key.js';
import { importCategoriesProcedure } from './procedures/import-categories.js';
import { importTermsProcedure } from './procedures/import-terms.js';
import { createSiteProcedure, listSitesProcedure, setSiteOpeningHoursProcedure } from './procedures/create-site.js';
import { createUserProcedure } from './procedures/create-user.js';
import { blockUserProcedure, unblockUserProcedure } from './procedures/block-user.js';
import { getListingProcedure } from './procedures/get-listing.js';
import { approveListingProcedure } from './procedures/approve-listing.js';
import { denyListingProcedure } from './procedures/deny-listing.js';
import { offerForListingProcedure } from './procedures/offer-for-listing.js';
import { setShippingSizeProcedure } from './procedures/set-shipping-size.js';
import { setCommissionProcedure } from './procedures/set-commission.js';
import { setCustodyProcedure } from './procedures/set-custody.js';
import { listRatesProcedure, setRatesProcedure } from './procedures/set-rates.js';
import { createVoucherProcedure } from './procedures/create-voucher.js';
import { listVouchersProcedure } from './procedures/list-vouchers.js';
import { getOrderProcedure } from './procedures/get-order.js';
import { listOrdersProcedure } from './procedures/list-orders.js';
import { transitionOrderProcedure } from './procedures/transition-order.js';
import { getConversationProcedure, listSupportProcedure, replySupportProcedure } from './procedures/support.js';
import { reconcilePayoutsProcedure } from './procedures/reconcile-payouts.js';
import { failedPayoutsProcedure, retryPayoutProcedure } from './procedures/failed-payouts.js';
import { listPagesProcedure, previewLinkProcedure, publishPageProcedure, putPageProcedure, setMediaAltProcedure, unpublishPageProcedure, uploadMediaProcedure } from './procedures/pages.js';
import { exportNewsletterProcedure } from './procedures/export-newsletter.js';
import { doctorProcedure } from './procedures/doctor.js';
import { attentionProcedure } from './procedures/attention.js';
import {
  createWebhookProcedure,
  deleteWebhookProcedure,
  listWebhooksProcedure,
  replayWebhookProcedure,
  rotateWebhookSecretProcedure,
  updateWebhookProcedure,
  webhookDeliveriesProcedure,
} from './procedures/webhooks.js';
import { createOperatorProcedure, listOperatorsProcedure, removeOperatorProcedure, setOperatorRoleProcedure } from './procedures/operators.js';
// the flows fill the effect slots the modules' machines name (an order move needs them)
import '@hm/domain/flows';

/**
 * Operator console: outside the public contract (never mounted on /v1). The CLI derives its
 * commands (`<group> <action>`, camelCase actions as kebab-case; a procedure at the top is a command of one word, `doctor`) and flags from this router and the
 * procedures' input schemas, and calls them in-process; input errors are the same problems as on the API.
 */
export const consoleRouter = router({
  marketplace: router({
    create: createMarketplaceProcedure,
    update: updateMarketplaceProcedure,
    get: getMarketplaceProcedure,
    list: listMarketplacesProcedure,
  }),
  keys: router({ create: createKeyProcedure, list: listKeysProcedure, revoke: revokeKeyProcedure }),
  categories: router({ import: importCategoriesProcedure }),
  terms: router({ import: importTermsProcedure }),
  sites: router({ create: createSiteProcedure, setOpeningHours: setSiteOpeningHoursProcedure, list: listSitesProcedure }),
  users: router({ create: createUserProcedure, block: blockUserProcedure, unblock: unblockUserProcedure }),
  listings: router({
    get: getListingProcedure,
    approve: approveListingProcedure,
    deny: denyListingProcedure,
    offer: offerForListingProcedure,
    setShippingSize: setShippingSizeProcedure,
    setCommission: setCommissionProcedure,
    custody: setCustodyProcedure,
  }),
  rates: router({ set: setRatesProcedure, list: listRatesProcedure }),
  vouchers: router({ create: createVoucherProcedure, list: listVouchersProcedure }),
  orders: router({ get: getOrderProcedure, list: listOrdersProcedure, transition: transitionOrderProcedure }),
  support: router({ list: listSupportProcedure, reply: replySupportProcedure }),
  conversations: router({ get: getConversationProcedure }),
  payouts: router({ reconcile: reconcilePayoutsProcedure, failed: failedPayoutsProcedure, retry: retryPayoutProcedure }),
  pages: router({ put: putPageProcedure, publish: publishPageProcedure, unpublish: unpublishPageProcedure, previewLink: previewLinkProcedure, list: listPagesProcedure }),
  media: router({ upload: uploadMediaProcedure, setAlt: setMediaAltProcedure }),
  newsletter: router({ export: exportNewsletterProcedure }),
  doctor: doctorProcedure,
  attention: attentionProcedure,
  webhooks: router({
    create: createWebhookProcedure,
    list: listWebhooksProcedure,
    update: updateWebhookProcedure,
    delete: deleteWebhookProcedure,
    rotateSecret: rotateWebhookSecretProcedure,
    deliveries: webhookDeliveriesProcedure,
    replay: replayWebhookProcedure,
  }),
  operators: router({ create: createOperatorProcedure, list: listOperatorsProcedure, setRole: setOperatorRoleProcedure, remove: removeOperatorProcedure }),
});

export type ConsoleRouter = typeof consoleRouter;

const createCaller = createCallerFactory(consoleRouter);
/** The console's in-process client (CLI, start-up seeding, tests). */
export function consoleCaller(ctx: Context) {
  return createCaller(ctx);
}
