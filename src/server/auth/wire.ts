/**
 * The account domains (customers, auth, and the ones added beside them) of an engine, as the engine
 * (src/server/engine/) builds them; the Yoga plugin in ./plugin.ts puts them and the request's login on
 * the GraphQL context.
 */
import type { GraphQLContext } from '../context.ts';
import type { CustomerService } from '../customers/service.ts';
import type { Mailer } from '../mail/index.ts';
import type { ClientAddressSettings, RateLimiter } from '../rate-limit/index.ts';
import type { AuthService, RequestAuth } from './service.ts';
import type { OAuthService } from './oauth.ts';
import type { EmailChangeService } from './email-change.ts';
import type { WishlistService } from '../wishlist/service.ts';
import type { AuthSettings } from './settings.ts';
import type { ReviewService } from '../reviews/service.ts';
import type { DownloadService } from '../downloads/service.ts';

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
};

/** What account resolvers receive: the engine's context plus the account services and the request's login. */
export type AccountContext = GraphQLContext & { accounts: AccountServices; auth: RequestAuth };
