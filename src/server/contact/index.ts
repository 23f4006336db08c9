/**
 * The contact module's one import door, and the process-wide wiring the Astro routes use: the engine's
 * database, the process mailer and the bot check, all from the environment. The ALTCHA challenge route
 * (the contact form is its user) is wired here too: its keys come from ALTCHA_HMAC_KEY or the engine's
 * session secret.
 */
import { AltchaChallenges, altchaKeys, getBotCheckSettings } from '../bot-check/index.ts';
import { getEngine } from '../engine.ts';
import { getMailer } from '../mail/index.ts';
import { siteBrand } from '../newsletter/settings.ts';
import { rateLimiterFor, readClientAddressSettings } from '../rate-limit/index.ts';
import type { ContactHandlerDeps } from './http.ts';
import { ContactService } from './service.ts';
import { readContactSettings } from './settings.ts';

export { handleContactConfig, handleContactRequest, CONTACT_SUCCESS_MESSAGE, BOT_CHECK_FAILED_MESSAGE, ALTCHA_FAILED_MESSAGES, SOMETHING_WENT_WRONG, type ContactHandlerDeps } from './http.ts';
export { ContactService, type ContactMeta, type StoredContactMessage } from './service.ts';
export { readContactSettings, ContactSettingsError, type ContactSettings } from './settings.ts';
export { contactFormSchema, parseContactForm, type ContactForm, type FieldErrors } from './validation.ts';
export { contactMessages } from './tables.ts';

let shared: Promise<ContactHandlerDeps> | null = null;

export function getContactHandlerDeps(): Promise<ContactHandlerDeps> {
  shared ??= (async () => {
    const engine = await getEngine();
    const mailer = getMailer();
    const botCheck = getBotCheckSettings();
    const limiter = rateLimiterFor(engine.database.db);
    const altcha = botCheck.mode === 'altcha' ? new AltchaChallenges(botCheck.altcha, altchaKeys(botCheck.altcha.hmacKey ?? engine.config.sessionSecret), { limiter }) : null;
    return {
      contact: new ContactService(engine.database.db, { mailer, supportEmail: mailer.settings.supportEmail, brand: siteBrand() }),
      limiter,
      settings: readContactSettings(),
      clientAddressSettings: readClientAddressSettings(),
      botCheck,
      altcha,
    };
  })().catch((err) => {
    shared = null;
    throw err;
  });
  return shared;
}
