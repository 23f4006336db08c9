/**
 * The rules of session start, as pure functions: when a page starts the session, what a failed start
 * means, and whether the one-time "log out and reload" may happen. The trigger script
 * (session-trigger.ts) and the session store (session.ts) follow them; tests/unit/session-rules.test.ts
 * pins them down. No browser or network access in here.
 */

/** Events that count as the visitor's first action (the spec's "delay store start until user action"). */
export const INTERACTION_EVENTS = [
  'mousemove',
  'mousedown',
  'keydown',
  'touchstart',
  'scroll',
  'wheel',
  'click',
  'resize',
] as const;

/**
 * Pages whose content is the session (cart, checkout, account, order pages) start it at once; every
 * other page waits for the first interaction when the delay setting is on. Paths are locale-free
 * ('/checkout', not '/de/checkout').
 */
const IMMEDIATE_PREFIXES = ['/cart', '/checkout', '/my-account', '/order-summary'];

export type SessionStartMode = 'immediate' | 'on-interaction';

export function sessionStartMode(localeFreePath: string, delayUntilInteraction: boolean): SessionStartMode {
  if (!delayUntilInteraction) return 'immediate';
  const path = localeFreePath.replace(/\/+$/, '') || '/';
  return IMMEDIATE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
    ? 'immediate'
    : 'on-interaction';
}

/**
 * Strips a locale prefix ('/de', '/pt-br') from a path. `prefixes` are the non-default locales'
 * path segments.
 */
export function stripLocalePrefix(pathname: string, prefixes: readonly string[]): string {
  const [, first = '', ...rest] = pathname.split('/');
  if (prefixes.includes(first.toLowerCase())) return `/${rest.join('/')}`;
  return pathname || '/';
}

/** Messages that mean the stored tokens belong to another server or are forged: start over clean. */
const RESET_MESSAGES = ['the iss do not match with this server', 'invalid session token'];

/**
 * - 'reset': the tokens are unusable (another server's, or rejected as invalid): clear cookies and local
 *   storage and reload.
 * - 'transient': the API could not be reached or timed out; the session itself may be fine, so nothing
 *   stored is thrown away (a flaky connection must not cost a shopper the cart).
 * - 'failed': the API answered with an error: the refresh failed — reset state, clear cookies and local
 *   storage, and (once per visitor) log out and reload.
 */
export type SessionFailure = 'reset' | 'transient' | 'failed';

export function classifySessionFailure(error: unknown): SessionFailure {
  const message = error instanceof Error ? error.message : String(error ?? '');
  const lower = message.toLowerCase();
  if (RESET_MESSAGES.some((m) => lower.includes(m))) return 'reset';
  const named = error as { name?: string; status?: number; errors?: readonly unknown[] } | null;
  if (named && typeof named === 'object') {
    if (named.name === 'TimeoutError') return 'transient';
    // A GraphQLRequestError without a status and without API errors never reached the API.
    if (named.name === 'GraphQLRequestError' && named.status === undefined && !named.errors?.length) return 'transient';
  }
  return 'failed';
}

/** The reload-count cookie: the one-time logout-and-reload has happened when it holds a count ≥ 1. */
export const RELOAD_COUNT_COOKIE = 'meshfront-reload-count';

export function mayReloadAfterFailure(reloadCountCookie: string | null | undefined): boolean {
  const count = Number.parseInt(reloadCountCookie ?? '', 10);
  return !Number.isFinite(count) || count < 1;
}

/**
 * Guard for the 'reset' path: it reloads every time it happens, so a server that keeps answering with
 * the same error must not put the page into a reload loop. A reload within `windowMs` of the previous
 * one is refused.
 */
export function mayResetReload(lastResetAt: number | null, now: number, windowMs = 30_000): boolean {
  return lastResetAt === null || !Number.isFinite(lastResetAt) || now - lastResetAt > windowMs;
}
