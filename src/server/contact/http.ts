/**
 * POST /api/contact-form/create — the contact form's endpoint (src/pages/api/contact-form/create.ts is a
 * thin wrapper). Body: JSON {firstName, lastName, email, phone, message, 'g-recaptcha-response', altcha}:
 * the reCAPTCHA token (which may instead come in a `google-recaptcha-token` header, for helpers) or the
 * ALTCHA widget's payload, whichever bot check the shop uses (../bot-check/settings.ts).
 *
 * Order of checks: size (413) → JSON (415/400) → fields (400 {message, errors}) → per-IP limit (429 with
 * Retry-After) → bot check (400) → store and mail (200 {message}). Anything unexpected is logged and
 * answered 500 {message: 'Something went wrong'}; no stack trace ever reaches the client.
 */
import {
  ALTCHA_CHALLENGE_PATH,
  checkBot,
  usesAltcha,
  type AltchaChallenges,
  type BotCheckFailureReason,
  type BotCheckSettings,
} from '../bot-check/index.ts';
import { clientAddress, rateLimitKeyForIp, type ClientAddressSettings, type RateLimiter } from '../rate-limit/index.ts';
import { describeWait, jsonResponse, readJsonBody, RequestBodyError } from '../../lib/http/json-route.ts';
import type { ContactService } from './service.ts';
import type { ContactSettings } from './settings.ts';
import { parseContactForm } from './validation.ts';
import { errorSummary } from '../error-summary.ts';

export const CONTACT_SUCCESS_MESSAGE =
  'Your message has been sent. Thank you for contacting us, we will get back to you soon.';
export const BOT_CHECK_FAILED_MESSAGE = 'Bot check failed. Please reload the page and try again.';
/** What a visitor is told when the ALTCHA answer is refused, by reason (the form then starts a new check). */
export const ALTCHA_FAILED_MESSAGES: Partial<Record<BotCheckFailureReason, string>> = {
  'missing-token':
    'Bot check failed: the form was sent without its verification. Please reload the page and try again.',
  expired: 'Bot check failed: the verification has expired. Please send the form again.',
  replayed: 'Bot check failed: this verification was already used. Please send the form again.',
};
export const SOMETHING_WENT_WRONG = 'Something went wrong';

export type ContactHandlerDeps = {
  contact: ContactService;
  limiter: RateLimiter;
  settings: ContactSettings;
  clientAddressSettings: ClientAddressSettings;
  botCheck: BotCheckSettings;
  /** Present when botCheck.mode is 'altcha' or 'recaptcha' (the check for visitors without consent to reCAPTCHA). */
  altcha: AltchaChallenges | null;
  log?: (message: string, error?: unknown) => void;
};

export type ContactRequestContext = {
  /** The TCP peer address (Astro's clientAddress). */
  socketAddress?: string | null;
};

function summarize(errors: Record<string, string | undefined>): string {
  return Object.values(errors)
    .filter(Boolean)
    .map((m) => (/[.!?]$/.test(m!) ? m : `${m}.`))
    .join(' ');
}

export async function handleContactRequest(
  request: Request,
  context: ContactRequestContext,
  deps: ContactHandlerDeps,
): Promise<Response> {
  // The log gets the error's redacted summary, never the error itself: a failed insert carries the message.
  const log =
    deps.log ??
    ((m: string, e?: unknown) => console.error(`[meshfront] ${m}${e === undefined ? '' : ` ${errorSummary(e)}`}`));
  try {
    if (request.method !== 'POST') return jsonResponse(405, { message: 'Use POST.' }, { allow: 'POST' });
    let body: Record<string, unknown>;
    try {
      body = await readJsonBody(request, deps.settings.maxBodyBytes);
    } catch (err) {
      if (err instanceof RequestBodyError) return jsonResponse(err.status, { message: err.message });
      throw err;
    }

    const parsed = parseContactForm(body);
    if (!parsed.ok) return jsonResponse(400, { message: summarize(parsed.errors), errors: parsed.errors });
    const form = parsed.form;

    const ip = clientAddress(request, context.socketAddress, deps.clientAddressSettings);
    const limit = await deps.limiter.consume({
      bucket: 'contact:ip',
      key: rateLimitKeyForIp(ip),
      limit: deps.settings.perHour,
      windowSeconds: 3600,
    });
    if (!limit.allowed) {
      return jsonResponse(
        429,
        { message: `You have sent too many messages. Please try again in ${describeWait(limit.retryAfterSeconds)}.` },
        { 'retry-after': String(limit.retryAfterSeconds) },
      );
    }

    const recaptchaToken = form['g-recaptcha-response'] || request.headers.get('google-recaptcha-token');
    const answer = { recaptchaToken, altchaPayload: form.altcha };
    const verdict = await checkBot(answer, ip, {
      settings: deps.botCheck,
      altcha: deps.altcha,
    });
    if (!verdict.ok) {
      log(`contact form refused by the bot check (${verdict.reason}: ${verdict.detail})`);
      const message =
        (usesAltcha(answer, deps.botCheck) && ALTCHA_FAILED_MESSAGES[verdict.reason]) || BOT_CHECK_FAILED_MESSAGE;
      return jsonResponse(400, { message });
    }

    await deps.contact.submit(form, {
      remoteIp: ip,
      userAgent: request.headers.get('user-agent'),
      botScore: verdict.score,
    });
    return jsonResponse(200, { message: CONTACT_SUCCESS_MESSAGE });
  } catch (err) {
    log('contact form request failed:', err);
    return jsonResponse(500, { message: SOMETHING_WENT_WRONG });
  }
}

/**
 * GET /api/contact-form/config — which bot check the form runs: `recaptcha` {siteKey, scriptUrl} (the
 * form loads Google's script and sends a token), and/or `altcha` {challengeUrl} (the form shows the ALTCHA
 * widget, which solves a challenge from that URL), or both null when verification is off (development
 * and test only), in which case the form loads nothing and sends no token. With reCAPTCHA both are given:
 * the form uses reCAPTCHA once the visitor consented to it, ALTCHA otherwise.
 */
export function handleContactConfig(deps: Pick<ContactHandlerDeps, 'botCheck' | 'settings'>): Response {
  const { mode, secret, siteKey } = deps.botCheck;
  const recaptcha =
    mode === 'recaptcha' && secret && siteKey ? { siteKey, scriptUrl: deps.settings.recaptchaScriptUrl } : null;
  const altcha = mode === 'altcha' || recaptcha ? { challengeUrl: ALTCHA_CHALLENGE_PATH } : null;
  return jsonResponse(200, { recaptcha, altcha }, { 'cache-control': 'public, max-age=300' });
}
