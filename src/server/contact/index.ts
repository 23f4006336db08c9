/**
 * The contact module's one import door, and the process-wide wiring the Astro route uses: the engine's
 * database, the process mailer and the bot-check settings, all from the environment.
 */
import { getBotCheckSettings } from '../bot-check/index.ts';
import { getEngine } from '../engine.ts';
import { getMailer } from '../mail/index.ts';
import { siteBrand } from '../newsletter/settings.ts';
import { rateLimiterFor, readClientAddressSettings } from '../rate-limit/index.ts';
import type { ContactHandlerDeps } from './http.ts';
import { ContactService } from './service.ts';
import { readContactSettings } from './settings.ts';

export { handleContactConfig, handleContactRequest, CONTACT_SUCCESS_MESSAGE, BOT_CHECK_FAILED_MESSAGE, SOMETHING_WENT_WRONG, type ContactHandlerDeps } from './http.ts';
export { ContactService, type ContactMeta, type StoredContactMessage } from './service.ts';
export { readContactSettings, ContactSettingsError, type ContactSettings } from './settings.ts';
export { contactFormSchema, parseContactForm, type ContactForm, type FieldErrors } from './validation.ts';
export { contactMessages } from './tables.ts';

let shared: Promise<ContactHandlerDeps> | null = null;

export function getContactHandlerDeps(): Promise<ContactHandlerDeps> {
  shared ??= (async () => {
    const engine = await getEngine();
    const mailer = getMailer();
    return {
      contact: new ContactService(engine.database.db, { mailer, supportEmail: mailer.settings.supportEmail, brand: siteBrand() }),
      limiter: rateLimiterFor(engine.database.db),
      settings: readContactSettings(),
      clientAddressSettings: readClientAddressSettings(),
      botCheck: getBotCheckSettings(),
    };
  })().catch((err) => {
    shared = null;
    throw err;
  });
  return shared;
}
