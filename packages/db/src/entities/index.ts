import { ApiKeySchema } from './api-key.entity.js';
import { CatalogTermSchema } from './catalog-term.entity.js';
import { CategorySchema } from './category.entity.js';
import { ExchangeRateSchema } from './exchange-rate.entity.js';
import { MarketplaceSchema } from './marketplace.entity.js';
import { SiteSchema } from './site.entity.js';
import { UserSchema } from './user.entity.js';
import { SessionSchema } from './session.entity.js';
import { EmailTokenSchema } from './email-token.entity.js';
import { EmailSchema } from './email.entity.js';
import { ListingSchema } from './listing.entity.js';
import { ListingImageSchema } from './listing-image.entity.js';
import { VoucherSchema } from './voucher.entity.js';
import { OrderSchema } from './order.entity.js';
import { PayoutAccountSchema, PayoutSchema } from './payout.entity.js';
import { MediaSchema, PageSchema } from './page.entity.js';

export { ApiKeySchema, type ApiKey } from './api-key.entity.js';
export { CatalogTermSchema, type CatalogTerm } from './catalog-term.entity.js';
export { CategorySchema, type Category } from './category.entity.js';
export { ExchangeRateSchema, type ExchangeRate } from './exchange-rate.entity.js';
export { MarketplaceSchema, type AbuseLimits, type Marketplace, type ListingRules, type ShippingTable, type TermKind } from './marketplace.entity.js';
export { SiteSchema, type Site } from './site.entity.js';
export { UserSchema, type User } from './user.entity.js';
export { SessionSchema, type Session } from './session.entity.js';
export { EmailTokenSchema, EMAIL_TOKEN_PURPOSES, type EmailToken, type EmailTokenPurpose } from './email-token.entity.js';
export { EmailSchema, type Email, type EmailLink } from './email.entity.js';
export { ListingSchema, LISTING_STATUSES, type Listing, type ListingStatus, type PriceStep, type ListingLocation, type ListingDelivery } from './listing.entity.js';
export { ListingImageSchema, type ListingImage } from './listing-image.entity.js';
export { VoucherSchema, type Voucher } from './voucher.entity.js';
export { OrderSchema, ORDER_STATES, type Order, type OrderState, type OrderLineItem, type OrderHistoryEntry } from './order.entity.js';
export { PayoutSchema, PayoutAccountSchema, PAYOUT_STATUSES, PAYOUT_SETUP_STATUSES, type Payout, type PayoutAccount, type PayoutStatus, type PayoutSetupStatus, type PayoutHistoryEntry } from './payout.entity.js';
export { PageSchema, MediaSchema, type Page, type PageContent, type Media } from './page.entity.js';
export type { Localized } from './common.js';

export const allEntities = [MarketplaceSchema, ApiKeySchema, CategorySchema, CatalogTermSchema, SiteSchema, ExchangeRateSchema, UserSchema, SessionSchema, EmailTokenSchema, EmailSchema, ListingSchema, ListingImageSchema, VoucherSchema, OrderSchema, PayoutSchema, PayoutAccountSchema, PageSchema, MediaSchema];
/** Entities owned by one marketplace: the `tenant` filter applies to these. */
export const tenantEntities = [ApiKeySchema, CategorySchema, CatalogTermSchema, SiteSchema, ExchangeRateSchema, UserSchema, SessionSchema, EmailTokenSchema, EmailSchema, ListingSchema, ListingImageSchema, VoucherSchema, OrderSchema, PayoutSchema, PayoutAccountSchema, PageSchema, MediaSchema];
