/**
 * GET /api/altcha/challenge — a fresh ALTCHA challenge for the contact form's widget (the file under
 * src/pages/api/altcha/ is a thin wrapper). 200 with the challenge as JSON, never cached; 404 when the
 * shop runs no ALTCHA check (verification off; with reCAPTCHA, ALTCHA is the check for visitors who did
 * not consent to Google's, see ../contact/index.ts); 429 with Retry-After when one client address asks for more than
 * ALTCHA_CHALLENGES_PER_HOUR (each challenge costs the server one key derivation).
 */
import { clientAddress, rateLimitKeyForIp, type ClientAddressSettings, type RateLimiter } from '../rate-limit/index.ts';
import type { AltchaChallenges } from './altcha.ts';
import type { BotCheckSettings } from './settings.ts';

export type AltchaChallengeDeps = {
  botCheck: BotCheckSettings;
  /** Present when botCheck.mode is 'altcha', or 'recaptcha' (the check for visitors without consent). */
  altcha: AltchaChallenges | null;
  limiter: RateLimiter;
  clientAddressSettings: ClientAddressSettings;
  log?: (message: string, error?: unknown) => void;
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export async function handleAltchaChallenge(
  request: Request,
  context: { socketAddress?: string | null },
  deps: AltchaChallengeDeps,
): Promise<Response> {
  if (request.method !== 'GET') return json(405, { message: 'Use GET.' }, { allow: 'GET' });
  if (!deps.altcha) return json(404, { message: 'This shop does not use the ALTCHA bot check.' });
  try {
    const ip = clientAddress(request, context.socketAddress, deps.clientAddressSettings);
    const limit = await deps.limiter.consume({
      bucket: 'altcha:challenge',
      key: rateLimitKeyForIp(ip),
      limit: deps.botCheck.altcha.challengesPerHour,
      windowSeconds: 3600,
    });
    if (!limit.allowed) {
      return json(
        429,
        { message: 'Too many verification requests from your network. Please try again later.' },
        { 'retry-after': String(limit.retryAfterSeconds) },
      );
    }
    return json(200, await deps.altcha.create());
  } catch (err) {
    (deps.log ?? ((m: string, e?: unknown) => console.error(`[meshfront] ${m}`, e ?? '')))(
      'ALTCHA challenge request failed:',
      err,
    );
    return json(500, { message: 'Something went wrong' });
  }
}
