/**
 * The newsletter module's one import door, and the process-wide wiring the Astro routes use.
 */
import { getEngine } from '../engine.ts';
import { getMailer } from '../mail/index.ts';
import { rateLimiterFor, readClientAddressSettings } from '../rate-limit/index.ts';
import type { NewsletterHandlerDeps } from './http.ts';
import { NewsletterService } from './service.ts';
import { readNewsletterSettings, siteBrand } from './settings.ts';

export { handleConfirm, handleSubscribe, handleUnsubscribeGet, handleUnsubscribePost, newsletterPage, SUBSCRIBE_MESSAGE, type NewsletterHandlerDeps } from './http.ts';
export { NewsletterService, hashToken, isWellFormedToken, type ConfirmResult } from './service.ts';
export { readNewsletterSettings, siteBrand, NewsletterSettingsError, type NewsletterSettings } from './settings.ts';
export { newsletterSubscribers } from './tables.ts';

let shared: Promise<NewsletterHandlerDeps> | null = null;

export function getNewsletterHandlerDeps(): Promise<NewsletterHandlerDeps> {
  shared ??= (async () => {
    const engine = await getEngine();
    const limiter = rateLimiterFor(engine.database.db);
    const settings = readNewsletterSettings();
    return {
      newsletter: new NewsletterService(engine.database.db, { mailer: getMailer(), limiter, settings, brand: siteBrand() }),
      limiter,
      settings,
      clientAddressSettings: readClientAddressSettings(),
    };
  })().catch((err) => {
    shared = null;
    throw err;
  });
  return shared;
}
