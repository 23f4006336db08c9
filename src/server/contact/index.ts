/**
 * The contact module's one import door, and what the engine builds for the Astro routes: the engine's
 * database and mail queue, and the bot check from the environment. The ALTCHA challenge route
 * (the contact form is its user) is served from here too: its keys come from ALTCHA_HMAC_KEY or the
 * engine's session secret.
 */
import { AltchaChallenges, altchaKeys, getBotCheckSettings } from '../bot-check/index.ts';
import type { Database } from '../db/connection.ts';
import type { MailQueue } from '../mail/index.ts';
import { siteBrand } from '../newsletter/settings.ts';
import { rateLimiterFor, readClientAddressSettings } from '../rate-limit/index.ts';
import type { ContactHandlerDeps } from './http.ts';
import { ContactService } from './service.ts';
import { readContactSettings } from './settings.ts';

export {
  handleContactConfig,
  handleContactRequest,
  CONTACT_SUCCESS_MESSAGE,
  BOT_CHECK_FAILED_MESSAGE,
  ALTCHA_FAILED_MESSAGES,
  SOMETHING_WENT_WRONG,
  type ContactHandlerDeps,
} from './http.ts';
export { ContactService, contactMailSettled, type ContactMeta, type StoredContactMessage } from './service.ts';
export { readContactSettings, ContactSettingsError, type ContactSettings } from './settings.ts';
export { contactFormSchema, parseContactForm, type ContactForm, type FieldErrors } from './validation.ts';

/** The contact form's collaborators on an engine's database; the engine builds them on first use. */
export function createContactHandlerDeps(input: {
  db: Database;
  sessionSecret: string;
  mail: MailQueue;
}): ContactHandlerDeps {
  const mail = input.mail;
  const botCheck = getBotCheckSettings();
  const limiter = rateLimiterFor(input.db);
  // With reCAPTCHA too: ALTCHA is the check for visitors who do not consent to Google's (../bot-check/check.ts).
  const altcha =
    botCheck.mode !== 'off'
      ? new AltchaChallenges(botCheck.altcha, altchaKeys(botCheck.altcha.hmacKey ?? input.sessionSecret), { limiter })
      : null;
  return {
    contact: new ContactService(input.db, {
      mail,
      supportEmail: mail.mailer.settings.supportEmail,
      brand: siteBrand(),
    }),
    limiter,
    settings: readContactSettings(),
    clientAddressSettings: readClientAddressSettings(),
    botCheck,
    altcha,
  };
}
