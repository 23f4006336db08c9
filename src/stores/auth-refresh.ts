/**
 * Keeps the login's short-lived auth token fresh with the refresh token (Headless Login's `refreshToken`
 * mutation, which in Meshfront also rotates the refresh token). Built by session.ts with its storage
 * and the GraphQL call plugged in, so the rules can be tested with fakes.
 *
 * - `ensureFresh()` before anything that needs the login (session start, the account area): refreshes
 *   when the token is missing or due (auth-rules.ts), otherwise does nothing.
 * - One refresh at a time per page, and across tabs (Web Locks, where the browser has them): the engine
 *   treats a refresh token used twice as stolen and ends the login, so a second tab must pick up the
 *   token the first one stored instead of refreshing with the old one.
 * - `success: false` means the login is over (revoked, expired, logged out elsewhere): `onLoginLost`.
 *   A network failure keeps the tokens: the next call tries again.
 */
import { needsRefresh, refreshDelayMs } from './auth-rules';

export interface RefreshedTokens {
  authToken: string | null;
  refreshToken: string | null;
  refreshTokenExpiration?: string | null;
  success: boolean | null;
}

export interface AuthRefresherDeps {
  /** The auth token as stored now (read from storage each time: another tab may have refreshed it). */
  readAuthToken: () => string | null;
  readRefreshToken: () => string | null;
  /** Stores a new pair; the refresh token only when the engine sent one. */
  storeTokens: (tokens: {
    authToken: string;
    refreshToken: string | null;
    refreshTokenExpiration?: string | null;
  }) => void;
  /** The refreshToken mutation. */
  refresh: (refreshToken: string) => Promise<RefreshedTokens | null>;
  /** The engine said the login is over. */
  onLoginLost: () => void;
  now?: () => number;
  /** Runs `fn` holding a lock shared by the browser's tabs; default: navigator.locks when present. */
  withLock?: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** What `ensureFresh` did: nothing to do (no login / still fresh), refreshed, login lost, or failed (network). */
export type RefreshOutcome = 'none' | 'fresh' | 'refreshed' | 'lost' | 'failed';

const LOCK_NAME = 'meshfront-auth-refresh';

function browserLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks?.request) return fn();
  return locks.request(name, fn) as Promise<T>;
}

export interface AuthRefresher {
  ensureFresh(options?: { force?: boolean }): Promise<RefreshOutcome>;
  /** Schedules the next refresh shortly before the stored token expires (replaces any earlier timer). */
  schedule(): void;
  cancel(): void;
}

export function createAuthRefresher(deps: AuthRefresherDeps): AuthRefresher {
  const now = deps.now ?? (() => Date.now());
  const withLock = deps.withLock ?? browserLock;
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let running: Promise<RefreshOutcome> | null = null;
  let timer: unknown = null;

  async function refreshHoldingLock(force: boolean): Promise<RefreshOutcome> {
    const presented = deps.readRefreshToken();
    if (!presented) return 'none';
    // Another tab may have refreshed while this one waited for the lock.
    if (!force && !needsRefresh(deps.readAuthToken(), now())) return 'fresh';
    let result: RefreshedTokens | null;
    try {
      result = await deps.refresh(presented);
    } catch {
      return 'failed';
    }
    if (!result?.success || !result.authToken) {
      // Another tab may have rotated it meanwhile: then the stored token is newer and still good.
      const current = deps.readRefreshToken();
      if (current && current !== presented) return 'fresh';
      deps.onLoginLost();
      return 'lost';
    }
    deps.storeTokens({
      authToken: result.authToken,
      refreshToken: result.refreshToken,
      refreshTokenExpiration: result.refreshTokenExpiration,
    });
    return 'refreshed';
  }

  const refresher: AuthRefresher = {
    ensureFresh({ force = false } = {}) {
      if (!deps.readRefreshToken()) return Promise.resolve('none');
      if (!force && !needsRefresh(deps.readAuthToken(), now())) return Promise.resolve('fresh');
      running ??= withLock(LOCK_NAME, () => refreshHoldingLock(force))
        .then((outcome) => {
          if (outcome === 'refreshed' || outcome === 'fresh') refresher.schedule();
          return outcome;
        })
        .finally(() => {
          running = null;
        });
      return running;
    },
    schedule() {
      refresher.cancel();
      const delay = refreshDelayMs(deps.readAuthToken(), now());
      if (delay === null || !deps.readRefreshToken()) return;
      timer = setTimer(() => {
        timer = null;
        void refresher.ensureFresh();
      }, delay);
    },
    cancel() {
      if (timer !== null) clearTimer(timer);
      timer = null;
    },
  };
  return refresher;
}
