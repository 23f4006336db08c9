/**
 * The newsletter module's one import door, and what the engine builds for the Astro routes.
 */
import type { Database } from '../db/connection.ts';
import type { MailQueue } from '../mail/index.ts';
import { rateLimiterFor, readClientAddressSettings } from '../rate-limit/index.ts';
import type { NewsletterHandlerDeps } from './http.ts';
import { NewsletterService } from './service.ts';
import { readNewsletterSettings, siteBrand } from './settings.ts';

export {
  handleConfirm,
  handleSubscribe,
  handleUnsubscribeGet,
  handleUnsubscribePost,
  newsletterPage,
  SUBSCRIBE_MESSAGE,
  type NewsletterHandlerDeps,
} from './http.ts';
export { NewsletterService, hashToken, isWellFormedToken, type ConfirmResult } from './service.ts';
export { readNewsletterSettings, siteBrand, NewsletterSettingsError, type NewsletterSettings } from './settings.ts';

/** The newsletter routes' collaborators on an engine's database; the engine builds them on first use. */
export function createNewsletterHandlerDeps(input: { db: Database; mail: MailQueue }): NewsletterHandlerDeps {
  const limiter = rateLimiterFor(input.db);
  const settings = readNewsletterSettings();
  return {
    newsletter: new NewsletterService(input.db, { mail: input.mail, limiter, settings, brand: siteBrand() }),
    limiter,
    settings,
    clientAddressSettings: readClientAddressSettings(),
  };
}
