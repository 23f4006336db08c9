// POST /api/contact-form/create — the contact form (see src/server/contact/http.ts).
import type { APIRoute } from 'astro';
import { useTranslations } from '../../../lib/i18n';
import { DEFAULT_LOCALE, LOCALES, localePrefix, type LocaleInfo } from '../../../lib/i18n/locales';
import { handleContactRequest } from '../../../server/contact/index.ts';
import { getEngine } from '../../../server/engine/index.ts';
import { socketAddress } from '../../../server/rate-limit/astro.ts';

export const prerender = false;

/** Content types a plain HTML form sends; the form's script always sends JSON. */
const NATIVE_FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The locale of the page the form was on (same-origin Referer's path prefix), else the default. */
function refererLocale(request: Request, url: URL): LocaleInfo {
  try {
    const referer = new URL(request.headers.get('referer') ?? '');
    if (referer.origin !== url.origin) return DEFAULT_LOCALE;
    const first = referer.pathname.split('/')[1]?.toLowerCase();
    return LOCALES.find((l) => l !== DEFAULT_LOCALE && l.path === first) ?? DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

/**
 * The prebuilt contact form is method="post" with this action, so a submit before its script took over
 * (see ContactForm.tsx) lands here form-encoded instead of putting the fields into a GET URL. Such a POST
 * has no bot-check token, so it is not processed, and its body is not even read: nothing is stored or
 * logged. The answer is a short page in the form's language saying the message was not sent and how to
 * resend it. Not a redirect to the contact page: going Back from this page usually keeps what the
 * shopper wrote in the form, a new load of the contact page would not.
 */
function nativeSubmitAnswer(request: Request, url: URL): Response {
  const locale = refererLocale(request, url);
  const t = useTranslations(locale.code);
  const html = `<!doctype html>
<html lang="${escapeHtml(locale.bcp47)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(t('contactFallback.title'))}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<main>
<h1>${escapeHtml(t('contactFallback.title'))}</h1>
<p>${escapeHtml(t('contactFallback.body'))}</p>
<p><a href="${escapeHtml(`${localePrefix(locale)}/contact`)}">${escapeHtml(t('contactFallback.back'))}</a></p>
</main>
</body>
</html>
`;
  return new Response(html, {
    status: 400,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

export const POST: APIRoute = async (context) => {
  const type = (context.request.headers.get('content-type') ?? '').toLowerCase();
  if (NATIVE_FORM_TYPES.some((t) => type.includes(t))) return nativeSubmitAnswer(context.request, context.url);
  const deps = await getEngine()
    .then((engine) => engine.contact())
    .catch((err) => {
      console.error('[meshfront] contact form unavailable:', err);
      return null;
    });
  if (!deps)
    return new Response(JSON.stringify({ message: 'Something went wrong' }), {
      status: 500,
      headers: { 'content-type': 'application/json' },
    });
  return handleContactRequest(context.request, { socketAddress: socketAddress(context) }, deps);
};

export const ALL: APIRoute = () =>
  new Response(JSON.stringify({ message: 'Use POST.' }), {
    status: 405,
    headers: { 'content-type': 'application/json', allow: 'POST' },
  });
