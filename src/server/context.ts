/** What every resolver receives: the engine's services and the request's session. */
import type { ServerConfig } from './config.ts';
import type { CatalogService } from './catalog/service.ts';
import type { SessionService, SessionState } from './session/service.ts';
import type { CartService } from './cart/service.ts';
import type { CouponService } from './coupons/service.ts';
import type { OrderService } from './orders/service.ts';
import type { Checkout } from './checkout/service.ts';
import type { PaymentsService } from './checkout/payments.ts';
import type { LocaleCode } from '../lib/i18n/locales.ts';

export type Services = {
  config: ServerConfig;
  catalog: CatalogService;
  sessions: SessionService;
  cart: CartService;
  coupons: CouponService;
  orders: OrderService;
  checkout: Checkout;
  payments: PaymentsService;
};

export type GraphQLContext = Services & {
  session: SessionState;
  request: Request;
  /** The language the answer is given in (texts the engine writes, translated catalog fields). */
  locale: LocaleCode;
};
