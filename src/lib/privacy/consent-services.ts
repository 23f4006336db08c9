/**
 * The services that may run only after the visitor's consent, apart from the full list
 * (cookies-and-processors.ts, which carries every text in six languages) so the browser code that checks
 * consent stays a few hundred bytes. tests/unit/cookies-and-processors.test.ts keeps the two in step.
 */
export type ConsentService = 'google-recaptcha';

export const CONSENT_SERVICES: readonly ConsentService[] = ['google-recaptcha'];

/** How long the visitor's privacy choice is kept before the shop asks again (src/stores/consent.ts). */
export const CONSENT_MAX_AGE_DAYS = 365;
