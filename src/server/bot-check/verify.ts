/**
 * Verifies a reCAPTCHA v3 token with Google's siteverify API (or the local stand-in in tests): POST
 * application/x-www-form-urlencoded `secret`, `response`, `remoteip`; the answer is
 * { success, score, action, hostname, challenge_ts, 'error-codes' }.
 *
 * `success` only says the token is genuine and unused; whether to trust the visitor is ours to decide, so
 * the action, the score and (optionally) the hostname are checked too. Every failure — including Google
 * being slow or unreachable — is an answer, never an exception: the caller refuses the form, it does not
 * crash, and it never waves a visitor through because the check could not run.
 */
import { z } from 'zod';
import { type ServiceBreaker, ServiceUnavailableError, serviceBreaker } from '../service-breaker.ts';
import { getBotCheckSettings, type BotCheckSettings } from './settings.ts';

export type BotCheckFailureReason =
  /** No token, or one that cannot be a reCAPTCHA token (or an ALTCHA answer). */
  | 'missing-token'
  /** siteverify said no: invalid, expired or already used token, or a bad secret; ALTCHA: forged or wrong answer. */
  | 'rejected'
  /** ALTCHA: the challenge's time ran out before the form was sent. */
  | 'expired'
  /** ALTCHA: this answer was already accepted once. */
  | 'replayed'
  | 'wrong-action'
  | 'low-score'
  | 'wrong-hostname'
  /** siteverify could not be asked or gave no usable answer. */
  | 'unavailable'
  /** No secret in production (the settings refuse this; kept for settings built by hand). */
  | 'not-configured';

export type BotCheckResult =
  | { ok: true; score: number | null; skipped: boolean }
  | { ok: false; reason: BotCheckFailureReason; detail: string; errorCodes: string[] };

export type VerifyOptions = {
  settings?: BotCheckSettings;
  /** Where "verification is off" is reported (default console.warn). */
  log?: (message: string) => void;
};

/** Google's tokens are a few hundred to a couple of thousand characters; anything far longer is not one. */
const MAX_TOKEN_LENGTH = 8192;

const siteverifyAnswer = z.object({
  success: z.boolean(),
  score: z.number().optional(),
  action: z.string().optional(),
  hostname: z.string().optional(),
  challenge_ts: z.string().optional(),
  'error-codes': z.array(z.string()).optional(),
});

const offNoticeGiven = new WeakSet<BotCheckSettings>();

/** siteverify down or overloaded (5xx, 429): counted by the breaker like no answer at all. */
class SiteverifyOutage extends Error {
  override name = 'SiteverifyOutage';
}

/** Google unreachable, too slow or failing: a breaker per siteverify URL (service-breaker.ts). */
const breakers = new Map<string, ServiceBreaker>();
function breakerFor(url: string): ServiceBreaker {
  let breaker = breakers.get(url);
  if (!breaker) {
    breaker = serviceBreaker('the bot check (siteverify)', {
      // Errors of the call itself: no connection, the time limit, a 5xx/429 answer. A JSON body that does
      // not parse counts as an outage too: siteverify then sent something other than its answer.
      isOutage: (error) => !(error instanceof ServiceUnavailableError),
    });
    breakers.set(url, breaker);
  }
  return breaker;
}

function fail(reason: BotCheckFailureReason, detail: string, errorCodes: string[] = []): BotCheckResult {
  return { ok: false, reason, detail, errorCodes };
}

export async function verifyBotToken(
  token: string | null | undefined,
  remoteIp?: string | null,
  options: VerifyOptions = {},
): Promise<BotCheckResult> {
  const settings = options.settings ?? getBotCheckSettings();
  if (!settings.secret) {
    if (settings.env === 'production') return fail('not-configured', 'RECAPTCHA_SECRET is not set');
    if (!offNoticeGiven.has(settings)) {
      offNoticeGiven.add(settings);
      (options.log ?? ((m: string) => console.warn(`[meshfront] ${m}`)))(
        'reCAPTCHA verification is off (RECAPTCHA_SECRET is not set)',
      );
    }
    return { ok: true, score: null, skipped: true };
  }

  if (typeof token !== 'string' || token.trim() === '') return fail('missing-token', 'no reCAPTCHA token was sent');
  if (token.length > MAX_TOKEN_LENGTH) return fail('missing-token', 'the reCAPTCHA token is too long to be genuine');

  const form = new URLSearchParams({ secret: settings.secret, response: token });
  if (remoteIp) form.set('remoteip', remoteIp);

  let body: unknown;
  try {
    // Not retried: a token is single use, so a second try after a lost answer would be refused as used.
    const answer = await breakerFor(settings.verifyUrl).run(async () => {
      const response = await fetch(settings.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form,
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      if (response.status >= 500 || response.status === 429)
        throw new SiteverifyOutage(`siteverify answered HTTP ${response.status}`);
      return response.ok ? { body: (await response.json()) as unknown } : { status: response.status };
    });
    if ('status' in answer) return fail('unavailable', `siteverify answered HTTP ${answer.status}`);
    body = answer.body;
  } catch (error) {
    const e = error as Error;
    if (e instanceof SiteverifyOutage) return fail('unavailable', e.message);
    if (e instanceof ServiceUnavailableError) return fail('unavailable', `siteverify is not answering: ${e.message}`);
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
      return fail('unavailable', `siteverify did not answer within ${settings.timeoutMs} ms`);
    const cause = (e.cause as Error | undefined)?.message;
    return fail('unavailable', `siteverify could not be reached: ${cause ?? e.message}`);
  }

  const parsed = siteverifyAnswer.safeParse(body);
  if (!parsed.success) return fail('unavailable', 'siteverify answered with an unexpected body');
  const answer = parsed.data;
  const errorCodes = answer['error-codes'] ?? [];

  if (!answer.success)
    return fail(
      'rejected',
      `siteverify refused the token${errorCodes.length ? ` (${errorCodes.join(', ')})` : ''}`,
      errorCodes,
    );
  if (answer.action !== settings.expectedAction) {
    return fail(
      'wrong-action',
      `the token was made for action ${JSON.stringify(answer.action ?? null)}, expected ${JSON.stringify(settings.expectedAction)}`,
    );
  }
  // A v2 key answers without a score; with a v3 threshold configured that is not good enough.
  if (answer.score === undefined || answer.score < settings.minScore) {
    return fail('low-score', `score ${answer.score ?? 'missing'} is below the minimum ${settings.minScore}`);
  }
  if (
    settings.expectedHostnames.length > 0 &&
    !settings.expectedHostnames.includes((answer.hostname ?? '').toLowerCase())
  ) {
    return fail(
      'wrong-hostname',
      `the token was solved on ${JSON.stringify(answer.hostname ?? null)}, expected one of ${settings.expectedHostnames.join(', ')}`,
    );
  }
  return { ok: true, score: answer.score, skipped: false };
}
