/**
 * Builds the account domains (customers, auth, and the ones added beside them) for an engine. Called
 * once per engine by engine.ts; the Yoga plugin in ./plugin.ts puts them and the request's login on the
 * GraphQL context.
 */
import type { CatalogService } from '../catalog/service.ts';
import type { CommerceServices } from '../checkout/wire.ts';
import type { ServerConfig } from '../config.ts';
import type { GraphQLContext } from '../context.ts';
import { CustomerService } from '../customers/service.ts';
import type { DatabaseHandle } from '../db/connection.ts';
import { createMailer, readMailSettings, type Mailer } from '../mail/index.ts';
import { rateLimiterFor, readClientAddressSettings, type ClientAddressSettings, type RateLimiter } from '../rate-limit/index.ts';
import type { SessionService } from '../session/service.ts';
import { AuthService, type RequestAuth } from './service.ts';
import { OAuthService } from './oauth.ts';
import { EmailChangeService } from './email-change.ts';
import { WishlistService } from '../wishlist/service.ts';
import { readAuthSettings, type AuthSettings } from './settings.ts';
import { ReviewService } from '../reviews/service.ts';
import { readReviewSettings } from '../reviews/settings.ts';
import { DownloadService } from '../downloads/service.ts';
import { readDownloadSettings } from '../downloads/settings.ts';

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

export function createAccounts(input: {
  database: DatabaseHandle;
  config: ServerConfig;
  catalog: CatalogService;
  sessions: SessionService;
  commerce: CommerceServices;
  env?: Record<string, string | undefined>;
}): AccountServices {
  const env = input.env ?? process.env;
  const { database, config, sessions } = input;
  const settings = readAuthSettings(config, env);
  const limiter = rateLimiterFor(database.db);
  const customers = new CustomerService(database.db, config.allowedCountries);
  // The outbox follows the engine's data directory unless MAIL_OUTBOX_DIR says otherwise.
  let mailer: Mailer | null = null;
  const getMailer = () => (mailer ??= createMailer(readMailSettings({ ...env, MESHFRONT_DATA_DIR: config.dataDir })));
  const auth = new AuthService(database.db, customers, sessions, limiter, settings, getMailer);
  const emailChange = new EmailChangeService(database.db, customers, auth, limiter, settings, getMailer);
  const reviews = new ReviewService(database.db, input.catalog, input.commerce.orders, limiter, readReviewSettings(env));
  const downloads = new DownloadService(database.db, input.catalog, input.commerce.orders, readDownloadSettings(config, env), settings.keys.download, settings.siteUrl);
  const oauth = new OAuthService(database.db, settings, customers, auth, getMailer);
  const wishlist = new WishlistService(database.db, input.catalog);
  return { settings, clientAddress: readClientAddressSettings(env), limiter, customers, auth, emailChange, mailer: getMailer, reviews, downloads, oauth, wishlist };
}
