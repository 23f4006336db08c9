/**
 * The newsletter's REST routes (the files under src/pages/api/newsletter/ are thin wrappers):
 *
 *   POST /api/newsletter/subscribe   JSON {email, locale} → 200 {message} — the same answer whether the
 *                                    address is new, pending or already subscribed (no enumeration);
 *                                    400 {message, errors} for a bad address, 429 {message} + Retry-After.
 *   GET  /api/newsletter/confirm?token=…      → 303 to /<locale>/newsletter/confirmed (or …/invalid).
 *   GET  /api/newsletter/unsubscribe?token=…  → 303 to /<locale>/newsletter/unsubscribe?token=…, a page
 *                                    with one button (link scanners that open every URL in a mail must not
 *                                    unsubscribe anyone), or …/invalid.
 *   POST /api/newsletter/unsubscribe?token=…  RFC 8058 one-click (body List-Unsubscribe=One-Click) → 200;
 *                                    the page's form (body token=…) → 303 to /<locale>/newsletter/unsubscribed.
 */
import { localeByCode, localePrefix, DEFAULT_LOCALE, LOCALES } from '../../lib/i18n/locales.ts';
import {
  jsonResponse,
  readJsonBody,
  readLimitedText,
  RequestBodyError,
  describeWait,
} from '../../lib/http/json-route.ts';
import { isValidEmailAddress } from '../mail/index.ts';
import { clientAddress, rateLimitKeyForIp, type ClientAddressSettings, type RateLimiter } from '../rate-limit/index.ts';
import type { NewsletterService } from './service.ts';
import type { NewsletterSettings } from './settings.ts';
import { errorSummary } from '../error-summary.ts';

export const SUBSCRIBE_MESSAGE =
  'Thank you! Please check your inbox and click the link in our e-mail to confirm your subscription.';
const MAX_BODY_BYTES = 2048;

export type NewsletterHandlerDeps = {
  newsletter: NewsletterService;
  limiter: RateLimiter;
  settings: NewsletterSettings;
  clientAddressSettings: ClientAddressSettings;
  log?: (message: string, error?: unknown) => void;
};

export type NewsletterRequestContext = { socketAddress?: string | null };

/** The error's redacted summary, never the error itself: a failed insert carries the subscriber's address. */
function defaultLog(message: string, error?: unknown) {
  console.error(`[meshfront] ${message}${error === undefined ? '' : ` ${errorSummary(error)}`}`);
}

function baseUrl(request: Request, settings: NewsletterSettings): string {
  return settings.siteUrl ?? new URL(request.url).origin;
}

/** '/de/newsletter/confirmed' for de_DE, '/newsletter/confirmed' for English or an unknown code. */
export function newsletterPage(
  locale: string | null,
  page: 'confirmed' | 'unsubscribed' | 'invalid' | 'unsubscribe',
): string {
  const info = (locale && localeByCode(locale)) || DEFAULT_LOCALE;
  return `${localePrefix(info)}/newsletter/${page}`;
}

function redirect(location: string): Response {
  return new Response(null, {
    status: 303,
    headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });
}

async function guarded(
  log: NewsletterHandlerDeps['log'],
  what: string,
  fn: () => Promise<Response>,
  onError: () => Response,
): Promise<Response> {
  try {
    return await fn();
  } catch (err) {
    (log ?? defaultLog)(`newsletter ${what} failed:`, err);
    return onError();
  }
}

const somethingWentWrong = () => jsonResponse(500, { message: 'Something went wrong' });

export function handleSubscribe(
  request: Request,
  context: NewsletterRequestContext,
  deps: NewsletterHandlerDeps,
): Promise<Response> {
  return guarded(
    deps.log,
    'sign-up',
    async () => {
      let body: Record<string, unknown>;
      try {
        body = await readJsonBody(request, MAX_BODY_BYTES);
      } catch (err) {
        if (err instanceof RequestBodyError) return jsonResponse(err.status, { message: err.message });
        throw err;
      }
      const email = typeof body.email === 'string' ? body.email.trim() : '';
      if (!isValidEmailAddress(email)) {
        return jsonResponse(400, {
          message: 'Please enter a valid email',
          errors: { email: 'Please enter a valid email' },
        });
      }
      const locale =
        typeof body.locale === 'string' && LOCALES.some((l) => l.code === body.locale)
          ? body.locale
          : DEFAULT_LOCALE.code;

      const ip = clientAddress(request, context.socketAddress, deps.clientAddressSettings);
      const limit = await deps.limiter.consume({
        bucket: 'newsletter:ip',
        key: rateLimitKeyForIp(ip),
        limit: deps.settings.perHourPerIp,
        windowSeconds: 3600,
      });
      if (!limit.allowed) {
        return jsonResponse(
          429,
          {
            message: `Too many sign-ups from your network. Please try again in ${describeWait(limit.retryAfterSeconds)}.`,
          },
          { 'retry-after': String(limit.retryAfterSeconds) },
        );
      }
      await deps.newsletter.subscribe(email, locale, { ip, baseUrl: baseUrl(request, deps.settings) });
      return jsonResponse(200, { message: SUBSCRIBE_MESSAGE });
    },
    somethingWentWrong,
  );
}

export function handleConfirm(
  request: Request,
  context: NewsletterRequestContext,
  deps: NewsletterHandlerDeps,
): Promise<Response> {
  return guarded(
    deps.log,
    'confirmation',
    async () => {
      const token = new URL(request.url).searchParams.get('token') ?? '';
      const ip = clientAddress(request, context.socketAddress, deps.clientAddressSettings);
      const result = await deps.newsletter.confirm(token, { ip, baseUrl: baseUrl(request, deps.settings) });
      return redirect(newsletterPage(result.locale, result.ok ? 'confirmed' : 'invalid'));
    },
    () => redirect(newsletterPage(null, 'invalid')),
  );
}

export function handleUnsubscribeGet(
  request: Request,
  _context: NewsletterRequestContext,
  deps: NewsletterHandlerDeps,
): Promise<Response> {
  return guarded(
    deps.log,
    'unsubscribe page',
    async () => {
      const token = new URL(request.url).searchParams.get('token') ?? '';
      const locale = await deps.newsletter.unsubscribeTokenLocale(token);
      if (!locale) return redirect(newsletterPage(null, 'invalid'));
      return redirect(`${newsletterPage(locale, 'unsubscribe')}?token=${encodeURIComponent(token)}`);
    },
    () => redirect(newsletterPage(null, 'invalid')),
  );
}

export function handleUnsubscribePost(
  request: Request,
  _context: NewsletterRequestContext,
  deps: NewsletterHandlerDeps,
): Promise<Response> {
  const oneClickFailed = () =>
    new Response('Something went wrong', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return guarded(
    deps.log,
    'unsubscribe',
    async () => {
      let text = '';
      try {
        text = await readLimitedText(request, MAX_BODY_BYTES);
      } catch (err) {
        if (err instanceof RequestBodyError) return new Response(err.message, { status: err.status });
        throw err;
      }
      const form = new URLSearchParams(text);
      const oneClick = form.get('List-Unsubscribe') === 'One-Click';
      const token = new URL(request.url).searchParams.get('token') ?? form.get('token') ?? '';
      const result = await deps.newsletter.unsubscribe(token);
      if (oneClick) {
        return new Response(result.ok ? 'You have been unsubscribed.' : 'This unsubscribe link is not valid.', {
          status: result.ok ? 200 : 400,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        });
      }
      return redirect(newsletterPage(result.locale, result.ok ? 'unsubscribed' : 'invalid'));
    },
    oneClickFailed,
  );
}
