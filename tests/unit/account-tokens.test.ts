import { describe, expect, it, vi } from 'vitest';
import { createAuthRefresher, type AuthRefresherDeps, type RefreshedTokens } from '../../src/stores/auth-refresh';
import { isAuthTokenError, needsRefresh, refreshDelayMs, secondsUntil, tokenExpiry } from '../../src/stores/auth-rules';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** An unsigned JWT-shaped token expiring at `exp` (Unix seconds): the browser only reads exp. */
const jwt = (exp: number | string | undefined) =>
  `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(exp === undefined ? { sub: '1' } : { sub: '1', exp })}.signature`;

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const nowS = NOW / 1000;

describe('token expiry', () => {
  it('reads the exp claim of a JWT without verifying it', () => {
    expect(tokenExpiry(jwt(nowS + 300))).toBe(nowS + 300);
  });

  it('is null for anything that is not a JWT with a numeric exp', () => {
    for (const token of [
      null,
      undefined,
      '',
      'abc',
      'a.b',
      'a.b.c.d',
      jwt(undefined),
      jwt('soon'),
      'x.%%%.y',
      `h.${Buffer.from('not json').toString('base64url')}.s`,
    ]) {
      expect(tokenExpiry(token as string | null)).toBeNull();
    }
  });

  it('a token is due for refresh a minute before it expires, or when missing', () => {
    expect(needsRefresh(jwt(nowS + 300), NOW)).toBe(false);
    expect(needsRefresh(jwt(nowS + 61), NOW)).toBe(false);
    expect(needsRefresh(jwt(nowS + 60), NOW)).toBe(true);
    expect(needsRefresh(jwt(nowS - 5), NOW)).toBe(true);
    expect(needsRefresh(null, NOW)).toBe(true);
    expect(needsRefresh('garbage', NOW)).toBe(true);
    // With no margin: only an expired token.
    expect(needsRefresh(jwt(nowS + 1), NOW, 0)).toBe(false);
    expect(needsRefresh(jwt(nowS), NOW, 0)).toBe(true);
  });

  it('schedules the refresh a minute before expiry, never sooner than 5 s', () => {
    expect(refreshDelayMs(jwt(nowS + 300), NOW)).toBe(240_000);
    expect(refreshDelayMs(jwt(nowS + 30), NOW)).toBe(5_000);
    expect(refreshDelayMs(null, NOW)).toBeNull();
  });

  it('turns the engine’s expiration strings into seconds from now', () => {
    expect(secondsUntil(String(nowS + 90), NOW)).toBe(90);
    expect(secondsUntil(nowS - 10, NOW)).toBe(0);
    expect(secondsUntil('', NOW)).toBeNull();
    expect(secondsUntil('tomorrow', NOW)).toBeNull();
    expect(secondsUntil(null, NOW)).toBeNull();
  });

  it('recognises the engine’s refusals of a Bearer token, and nothing else', () => {
    expect(isAuthTokenError(new Error('Expired token'))).toBe(true);
    expect(
      isAuthTokenError(
        Object.assign(new Error('x'), {
          errors: [{ message: 'The User Secret does not match or has been revoked for this user' }],
        }),
      ),
    ).toBe(true);
    expect(isAuthTokenError(new Error('Incorrect password. Please try again.'))).toBe(false);
    expect(isAuthTokenError('Expired token')).toBe(false);
    expect(isAuthTokenError(null)).toBe(false);
  });
});

/** A fake browser: tokens in "storage", a refresh endpoint that rotates, a clock, timers and a lock. */
function harness(initial: { auth: string | null; refresh: string | null }) {
  const store = { ...initial };
  let clock = NOW;
  const timers: { fn: () => void; ms: number }[] = [];
  const calls: string[] = [];
  let answer: (presented: string) => Promise<RefreshedTokens | null> = async (presented) => ({
    authToken: jwt(Math.floor(clock / 1000) + 300),
    refreshToken: `${presented}+`,
    success: true,
  });
  const lost = vi.fn();
  const deps: AuthRefresherDeps = {
    readAuthToken: () => store.auth,
    readRefreshToken: () => store.refresh,
    storeTokens: (tokens) => {
      store.auth = tokens.authToken;
      if (tokens.refreshToken) store.refresh = tokens.refreshToken;
    },
    refresh: (presented) => {
      calls.push(presented);
      return answer(presented);
    },
    onLoginLost: () => {
      store.auth = null;
      store.refresh = null;
      lost();
    },
    now: () => clock,
    withLock: (_name, fn) => fn(),
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => {
      timers.length = 0;
    },
  };
  return {
    store,
    calls,
    timers,
    lost,
    refresher: createAuthRefresher(deps),
    advance: (ms: number) => (clock += ms),
    answerWith: (fn: typeof answer) => (answer = fn),
  };
}

describe('auth refresher', () => {
  it('does nothing without a login, or while the token is fresh', async () => {
    const guest = harness({ auth: null, refresh: null });
    expect(await guest.refresher.ensureFresh()).toBe('none');
    const fresh = harness({ auth: jwt(nowS + 300), refresh: 'r1' });
    expect(await fresh.refresher.ensureFresh()).toBe('fresh');
    expect(fresh.calls).toEqual([]);
  });

  it('refreshes a due token, stores the rotated pair and schedules the next refresh', async () => {
    const h = harness({ auth: jwt(nowS + 30), refresh: 'r1' });
    expect(await h.refresher.ensureFresh()).toBe('refreshed');
    expect(h.calls).toEqual(['r1']);
    expect(h.store.refresh).toBe('r1+');
    expect(tokenExpiry(h.store.auth)).toBe(nowS + 300);
    expect(h.timers.at(-1)?.ms).toBe(240_000);
  });

  it('sends one refresh for concurrent callers (a refresh token works once)', async () => {
    const h = harness({ auth: null, refresh: 'r1' });
    const outcomes = await Promise.all([
      h.refresher.ensureFresh(),
      h.refresher.ensureFresh(),
      h.refresher.ensureFresh(),
    ]);
    expect(outcomes).toEqual(['refreshed', 'refreshed', 'refreshed']);
    expect(h.calls).toEqual(['r1']);
  });

  it('refreshes when forced even if the token looks fresh (the engine refused it)', async () => {
    const h = harness({ auth: jwt(nowS + 300), refresh: 'r1' });
    expect(await h.refresher.ensureFresh({ force: true })).toBe('refreshed');
    expect(h.calls).toEqual(['r1']);
  });

  it('logs out when the engine says the login is over', async () => {
    const h = harness({ auth: null, refresh: 'revoked' });
    h.answerWith(async () => ({ authToken: null, refreshToken: null, success: false }));
    expect(await h.refresher.ensureFresh()).toBe('lost');
    expect(h.lost).toHaveBeenCalledTimes(1);
    expect(h.store.refresh).toBeNull();
  });

  it('keeps the login when another tab rotated the refresh token meanwhile', async () => {
    const h = harness({ auth: null, refresh: 'r1' });
    h.answerWith(async () => {
      // The other tab stored its new pair while this request was on the way.
      h.store.refresh = 'r1-from-other-tab';
      h.store.auth = jwt(nowS + 300);
      return { authToken: null, refreshToken: null, success: false };
    });
    expect(await h.refresher.ensureFresh()).toBe('fresh');
    expect(h.lost).not.toHaveBeenCalled();
    expect(h.store.refresh).toBe('r1-from-other-tab');
  });

  it('keeps the tokens when the engine cannot be reached, and tries again next time', async () => {
    const h = harness({ auth: null, refresh: 'r1' });
    h.answerWith(async () => {
      throw new Error('offline');
    });
    expect(await h.refresher.ensureFresh()).toBe('failed');
    expect(h.store.refresh).toBe('r1');
    h.answerWith(async () => ({ authToken: jwt(nowS + 300), refreshToken: 'r2', success: true }));
    expect(await h.refresher.ensureFresh()).toBe('refreshed');
    expect(h.store.refresh).toBe('r2');
  });

  it('the scheduled timer refreshes before expiry', async () => {
    const h = harness({ auth: jwt(nowS + 300), refresh: 'r1' });
    h.refresher.schedule();
    expect(h.timers).toHaveLength(1);
    h.advance(h.timers[0]!.ms);
    h.timers[0]!.fn();
    await vi.waitFor(() => expect(h.calls).toEqual(['r1']));
  });
});
