/**
 * What every /admin page does before it renders: never cached or indexed, the operator's session checked
 * (src/server/admin/web/session.ts), and a caller into the admin endpoint bound to that operator. Pages
 * stay thin: `const admin = await openAdminPage(Astro); if (admin instanceof Response) return admin;`.
 *
 * Every change is a POST answered with a 303 redirect back to a page (post/redirect/get), carrying a
 * `done` code that the next page turns into a fixed message — never text from the URL.
 */
import { getEngine, type Engine } from '../../engine/index.ts';
import { priceEntryTax, type PriceEntryTax } from '../../tax/price-entry.ts';
import { clientAddress as resolveClientAddress, rateLimitKeyForIp } from '../../rate-limit/index.ts';
import { getAdminYoga } from '../yoga.ts';
import { AdminCallError, adminCaller, type AdminCaller } from './client.ts';
import { FormFields, FormReadError, readForm } from './forms.ts';
import { readAdminSession, type AdminViewer } from './session.ts';
import { isMultipart, readUploadForm, type UploadForm } from './upload-form.ts';

/** The parts of Astro's page context the admin glue uses. */
export type AdminAstro = {
  request: Request;
  url: URL;
  /** Absent for endpoints (they build their own Response). */
  response?: { readonly headers: Headers; status?: number };
  /** Astro's getter throws where there is no client address. */
  readonly clientAddress: string;
};

/** Headers of every admin response: private, never stored, never indexed. */
export const ADMIN_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'private, no-store',
  'X-Robots-Tag': 'noindex, nofollow',
  'Referrer-Policy': 'same-origin',
};

/** The messages a `done` code stands for after a redirect. */
export const DONE_MESSAGES: Readonly<Record<string, string>> = {
  saved: 'Saved.',
  archived: 'The product was archived: it is no longer shown in the shop.',
  restored: 'The product is published again.',
  published: 'The product is published: shoppers can find it (its static page appears with the next publish).',
  'product-created': 'The product was created.',
  'variation-added': 'The variation was added.',
  'variation-deleted': 'The variation was deleted.',
  'image-added': 'The image was uploaded and added to the product.',
  'image-removed': 'The image was removed from the product.',
  'download-added': 'The downloadable file was added.',
  'download-removed': 'The downloadable file was removed.',
  'category-created': 'The category was created.',
  'category-deleted': 'The category was deleted; its products and sub-categories are kept.',
  completed: 'The order was completed.',
  'completed-mailed': 'The order was completed and the customer was e-mailed.',
  'completed-not-mailed':
    'The order was completed. The customer e-mail did not go out yet: it is tried again, and shows under Mail while it fails.',
  'on-hold': 'The order is on hold.',
  processing: 'The order is processing again.',
  cancelled: 'The order was cancelled and its stock returned.',
  refunded: 'The refund was made.',
  'refund-replayed': 'This refund had already been made; nothing more was refunded.',
  noted: 'The note was added.',
  'coupon-created': 'The coupon was created.',
  expired: 'The coupon expired now.',
  approved: 'The review was approved.',
  rejected: 'The review was rejected.',
  pending: 'The review is waiting for moderation again.',
  answered: 'The message was marked as answered.',
  unanswered: 'The message was marked as not answered.',
  'publish-started': 'Publishing started. This page follows it.',
  'mail-sent': 'The mail was sent.',
  'mail-queued': 'The mail is queued again; the mail server did not take it yet, so it is tried again later.',
  'mails-queued': 'Every failed mail is queued again.',
  'logged-out': 'You are logged out.',
  'customer-erased':
    'The customer was erased: their orders stay anonymised, the invoices as issued, and a confirmation was mailed to them.',
};

export type AdminPage = {
  viewer: AdminViewer;
  engine: Engine;
  call: AdminCaller;
  https: boolean;
  isPost: boolean;
  /** A renewed session cookie to send (already on astro.response for pages; endpoints add it themselves). */
  setCookie: string | null;
  /** The fixed message of the `done` code in the URL, if any. */
  flash: string | null;
  /** The posted form's fields (URL-encoded, size-limited). */
  form(): Promise<FormFields>;
  /** A file form was posted (multipart/form-data). */
  isUpload: boolean;
  /** The posted file form's fields and file (size-limited to ADMIN_MAX_UPLOAD_BYTES). */
  upload(): Promise<UploadForm>;
  /** 303 to an /admin path (cookies renewed during this request go along). */
  redirect(path: string, done?: keyof typeof DONE_MESSAGES): Response;
  /**
   * A posted create/edit form: `read` turns the fields into the API input (null when a field is refused,
   * the form then carries the per-field errors); `save` sends it and answers with the redirect. A refusal
   * — by the form or by the API — comes back as what the page shows next to the fields (answer 422).
   */
  submit<I>(
    read: (form: FormFields) => I | null,
    save: (input: I) => Promise<Response>,
  ): Promise<Response | RefusedForm>;
};

/** What a refused form shows: the message at the top, the per-field messages and the values typed. */
export type RefusedForm = { error: string | null; errors: Record<string, string>; posted: URLSearchParams | null };

export const NO_REFUSAL: RefusedForm = { error: null, errors: {}, posted: null };

/** X-Forwarded-Proto counts only when TRUST_PROXY says a proxy of ours is in front (as in src/middleware.ts). */
export function isHttps(request: Request, url: URL, trustProxy = process.env.TRUST_PROXY): boolean {
  if (url.protocol === 'https:') return true;
  const trust = (trustProxy ?? 'false').trim().toLowerCase();
  if (trust === 'false' || trust === '0' || trust === '') return false;
  const hops = (request.headers.get('x-forwarded-proto') ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const index = trust === 'true' ? 0 : Math.max(0, hops.length - Number(trust));
  return hops[index] === 'https';
}

/** Only same-site /admin paths are followed after a login or an action (no open redirect). */
export function safeAdminPath(value: string | null | undefined, fallback = '/admin'): string {
  if (
    !value ||
    !/^\/admin(?:[/?#]|$)/.test(value) ||
    value.startsWith('//') ||
    /[\\\s]/.test(value) ||
    value.length > 500
  )
    return fallback;
  return value;
}

export function peerAddress(astro: AdminAstro): string | undefined {
  try {
    return astro.clientAddress;
  } catch {
    return undefined;
  }
}

/** The engine and the client's rate-limit key (the same key the GraphQL endpoints use). */
export async function adminRequestBasics(
  astro: AdminAstro,
): Promise<{ engine: Engine; ip: string; https: boolean; peer: string | undefined }> {
  if (astro.response)
    for (const [name, value] of Object.entries(ADMIN_RESPONSE_HEADERS)) astro.response.headers.set(name, value);
  const engine = await getEngine();
  const peer = peerAddress(astro);
  const ip = rateLimitKeyForIp(resolveClientAddress(astro.request, peer, engine.accounts.clientAddress));
  return { engine, ip, peer, https: isHttps(astro.request, astro.url) };
}

export function seeOther(location: string, cookies: (string | null)[] = []): Response {
  const headers = new Headers({ Location: location, ...ADMIN_RESPONSE_HEADERS });
  for (const c of cookies) if (c) headers.append('Set-Cookie', c);
  return new Response(null, { status: 303, headers });
}

/** The session check of every admin page except the login: the page's context, or a redirect to the login. */
export async function openAdminPage(astro: AdminAstro): Promise<AdminPage | Response> {
  const { engine, ip, peer, https } = await adminRequestBasics(astro);
  const session = await readAdminSession(engine, astro.request.headers.get('cookie'), ip, https);
  if (!session.viewer) {
    const next = astro.request.method === 'GET' ? `${astro.url.pathname}${astro.url.search}` : astro.url.pathname;
    const query = new URLSearchParams({ next: safeAdminPath(next) });
    if (session.reason !== 'none') query.set('reason', session.reason);
    return seeOther(`/admin/login?${query}`, [session.setCookie]);
  }
  if (session.setCookie) astro.response?.headers.append('Set-Cookie', session.setCookie);
  const done = astro.url.searchParams.get('done');
  const yoga = await getAdminYoga();
  const form = async () => new FormFields(await readForm(astro.request));
  return {
    viewer: session.viewer,
    engine,
    call: adminCaller(yoga, session.authToken, peer),
    https,
    isPost: astro.request.method === 'POST',
    setCookie: session.setCookie,
    flash: done && Object.hasOwn(DONE_MESSAGES, done) ? DONE_MESSAGES[done]! : null,
    form,
    isUpload: astro.request.method === 'POST' && isMultipart(astro.request),
    upload() {
      return readUploadForm(astro.request);
    },
    redirect(path, code) {
      const target = safeAdminPath(path);
      const withDone = code ? `${target}${target.includes('?') ? '&' : '?'}done=${code}` : target;
      return seeOther(withDone, [session.setCookie]);
    },
    async submit(read, save) {
      let posted: URLSearchParams | null = null;
      try {
        const f = await form();
        posted = f.form;
        const input = read(f);
        if (input) return await save(input);
        return { error: 'Please correct the marked fields.', errors: f.errors, posted };
      } catch (err) {
        if (!(err instanceof AdminCallError || err instanceof FormReadError)) throw err;
        return { error: err.message, errors: {}, posted };
      }
    },
  };
}

export { FormReadError };

/** What the price inputs say about VAT: the shop's prices are entered with or without it (tax/price-entry.ts). */
export async function priceEntryLabels(): Promise<PriceEntryTax> {
  return priceEntryTax((await getEngine()).commerceSettings);
}
