/**
 * The bot check a form runs, whichever is configured (settings.ts): the ALTCHA answer when the mode is
 * 'altcha', else the reCAPTCHA token (verify.ts, which also answers for 'off' outside production).
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
  /** Present when settings.mode is 'altcha'. */
  altcha: AltchaChallenges | null;
};

export async function checkBot(
  answer: BotCheckAnswer,
  remoteIp: string | null | undefined,
  deps: BotCheckDeps,
): Promise<BotCheckResult> {
  if (deps.settings.mode === 'altcha') {
    if (!deps.altcha)
      return { ok: false, reason: 'not-configured', detail: 'the ALTCHA check is not wired', errorCodes: [] };
    return deps.altcha.verify(answer.altchaPayload);
  }
  return verifyBotToken(answer.recaptchaToken, remoteIp, { settings: deps.settings });
}
