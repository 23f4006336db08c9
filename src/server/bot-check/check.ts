/**
 * The bot check a form runs, whichever is configured (settings.ts): the ALTCHA answer when the mode is
 * 'altcha', else the reCAPTCHA token (verify.ts, which also answers for 'off' outside production).
 *
 * With reCAPTCHA, a form that sends an ALTCHA answer and no token is checked with ALTCHA: Google's script
 * runs in the visitor's browser only with their consent (ePrivacy), and a first-party check does the same
 * job, so a visitor who declines can still write to the shop. Both checks are the shop's own rules; a
 * bot gains nothing by choosing one (each ALTCHA answer costs it the proof of work and is taken once).
 */
import type { AltchaChallenges } from './altcha.ts';
import type { BotCheckSettings } from './settings.ts';
import { verifyBotToken, type BotCheckResult } from './verify.ts';

export type BotCheckAnswer = {
  /** The reCAPTCHA v3 token the form got from grecaptcha.execute. */
  recaptchaToken?: string | null;
  /** The ALTCHA widget's payload (base64 JSON of the challenge and its solution). */
  altchaPayload?: string | null;
};

export type BotCheckDeps = {
  settings: BotCheckSettings;
  /** Present when settings.mode is 'altcha' or 'recaptcha'. */
  altcha: AltchaChallenges | null;
};

/** Whether this answer is checked with ALTCHA (see above). */
export function usesAltcha(answer: BotCheckAnswer, settings: BotCheckSettings): boolean {
  if (settings.mode === 'altcha') return true;
  return settings.mode === 'recaptcha' && !!answer.altchaPayload && !answer.recaptchaToken;
}

export async function checkBot(
  answer: BotCheckAnswer,
  remoteIp: string | null | undefined,
  deps: BotCheckDeps,
): Promise<BotCheckResult> {
  if (usesAltcha(answer, deps.settings)) {
    if (!deps.altcha)
      return { ok: false, reason: 'not-configured', detail: 'the ALTCHA check is not wired', errorCodes: [] };
    return deps.altcha.verify(answer.altchaPayload);
  }
  return verifyBotToken(answer.recaptchaToken, remoteIp, { settings: deps.settings });
}
