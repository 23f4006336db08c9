/**
 * What every resolver receives: the engine's services and the request's session; account resolvers also
 * get the account domains (customers, auth and the ones beside them, as src/server/engine/ builds them)
 * and the request's login, which the Yoga plugin in auth/plugin.ts adds.
 */
import type { ServerConfig } from './config.ts';
import type { CatalogService } from './catalog/service.ts';
import type { SessionService, SessionState } from './session/service.ts';
import type { CartService } from './cart/service.ts';
import type { CouponService } from './coupons/service.ts';
import type { OrderService } from './orders/service.ts';
import type { Checkout } from './checkout/service.ts';
import type { PaymentsService } from './checkout/payments.ts';
import type { InvoiceService } from './invoices/service.ts';
import type { LocaleCode } from '../lib/i18n/locales.ts';
import type { CustomerRow, CustomerService } from './customers/service.ts';
import type { Mailer } from './mail/index.ts';
import type { ClientAddressSettings, RateLimiter } from './rate-limit/index.ts';
import type { AuthService, RequestAuth } from './auth/service.ts';
import type { OAuthService } from './auth/oauth.ts';
import type { EmailChangeService } from './auth/email-change.ts';
import type { WishlistService } from './wishlist/service.ts';
import type { AuthSettings } from './auth/settings.ts';
import type { ReviewService } from './reviews/service.ts';
import type { DownloadService } from './downloads/service.ts';
import type { AccountDeletionConfirmation } from './auth/account-deletion.ts';
import type { CustomerEraser } from './privacy/erase.ts';
import type { Storefront } from './storefront/settings.ts';

export type Services = {
  config: ServerConfig;
  catalog: CatalogService;
  sessions: SessionService;
  cart: CartService;
  coupons: CouponService;
  orders: OrderService;
  checkout: Checkout;
  payments: PaymentsService;
  /** Invoices and credit notes (their numbers and download links on an order). */
  invoices: InvoiceService;
  /** What headless storefronts read about the shop: site settings, media base URL, the card gateway's public part. */
  storefront: Storefront;
};

export type GraphQLContext = Services & {
  session: SessionState;
  request: Request;
  /** The language the answer is given in (texts the engine writes, translated catalog fields). */
  locale: LocaleCode;
};

/** The account domains of an engine. */
export type AccountServices = {
  settings: AuthSettings;
  clientAddress: ClientAddressSettings;
  limiter: RateLimiter;
  customers: CustomerService;
  auth: AuthService;
  /** E-mail changes (current password, notice to the previous address) and their "this wasn't me" reports. */
  emailChange: EmailChangeService;
  mailer: () => Mailer;
  reviews: ReviewService;
  downloads: DownloadService;
  oauth: OAuthService;
  wishlist: WishlistService;
  /** Everything the shop keeps about a customer, for their "Download my data" (privacy/export.ts). */
  personalData: (customer: CustomerRow) => Promise<unknown>;
  /** How the customer confirms "Delete my account" (password, or the e-mailed link without one). */
  deletion: AccountDeletionConfirmation;
  /** Erases a customer (privacy/erase.ts): "Delete my account" and the operator's erasure. */
  eraser: CustomerEraser;
};

/** What account resolvers receive: the engine's context plus the account services and the request's login. */
export type AccountContext = GraphQLContext & { accounts: AccountServices; auth: RequestAuth };
