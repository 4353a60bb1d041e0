import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_foundation } from './Migration20261122000000_foundation.js';
import { Migration20261122010000_accounts } from './Migration20261122010000_accounts.js';
import { Migration20261122020000_listings } from './Migration20261122020000_listings.js';
import { Migration20261122030000_shop } from './Migration20261122030000_shop.js';
import { Migration20261122040000_shop_counts } from './Migration20261122040000_shop_counts.js';
import { Migration20261123010000_on_sale } from './Migration20261123010000_on_sale.js';
import { Migration20261123030000_row_level_security } from './Migration20261123030000_row_level_security.js';
import { Migration20261124010000_orders } from './Migration20261124010000_orders.js';
import { Migration20261124020000_payment_events } from './Migration20261124020000_payment_events.js';
import { Migration20261125010000_payouts } from './Migration20261125010000_payouts.js';
import { Migration20261125020000_messages } from './Migration20261125020000_messages.js';
import { Migration20261125030000_pages } from './Migration20261125030000_pages.js';
import { Migration20261125050000_newsletter } from './Migration20261125050000_newsletter.js';
import { Migration20261125190000_job_priority } from './Migration20261125190000_job_priority.js';
import { Migration20261125200000_search_indexes } from './Migration20261125200000_search_indexes.js';
import { Migration20261127190000_exact_money } from './Migration20261127190000_exact_money.js';
import { Migration20261127200000_payout_transfer_started } from './Migration20261127200000_payout_transfer_started.js';
import { Migration20261127210000_ledger_chargebacks } from './Migration20261127210000_ledger_chargebacks.js';
import { Migration20261127220000_abuse_limits } from './Migration20261127220000_abuse_limits.js';
import { Migration20261128050000_operators } from './Migration20261128050000_operators.js';

/** Listed explicitly (not globbed) so migrations run the same from tsx, vitest and a bundle. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000_foundation', class: Migration20261122000000_foundation },
  { name: 'Migration20261122010000_accounts', class: Migration20261122010000_accounts },
  { name: 'Migration20261122020000_listings', class: Migration20261122020000_listings },
  { name: 'Migration20261122030000_shop', class: Migration20261122030000_shop },
  { name: 'Migration20261122040000_shop_counts', class: Migration20261122040000_shop_counts },
  { name: 'Migration20261123010000_on_sale', class: Migration20261123010000_on_sale },
  { name: 'Migration20261123030000_row_level_security', class: Migration20261123030000_row_level_security },
  { name: 'Migration20261124010000_orders', class: Migration20261124010000_orders },
  { name: 'Migration20261124020000_payment_events', class: Migration20261124020000_payment_events },
  { name: 'Migration20261125010000_payouts', class: Migration20261125010000_payouts },
  { name: 'Migration20261125020000_messages', class: Migration20261125020000_messages },
  { name: 'Migration20261125030000_pages', class: Migration20261125030000_pages },
  { name: 'Migration20261125050000_newsletter', class: Migration20261125050000_newsletter },
  { name: 'Migration20261125190000_job_priority', class: Migration20261125190000_job_priority },
  { name: 'Migration20261125200000_search_indexes', class: Migration20261125200000_search_indexes },
  { name: 'Migration20261127190000_exact_money', class: Migration20261127190000_exact_money },
  { name: 'Migration20261127200000_payout_transfer_started', class: Migration20261127200000_payout_transfer_started },
  { name: 'Migration20261127210000_ledger_chargebacks', class: Migration20261127210000_ledger_chargebacks },
  { name: 'Migration20261127220000_abuse_limits', class: Migration20261127220000_abuse_limits },
  { name: 'Migration20261128050000_operators', class: Migration20261128050000_operators },
];
