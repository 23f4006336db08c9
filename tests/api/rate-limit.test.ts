// The database-backed rate limiter: sliding-window arithmetic, refused calls not counted, exact limits
// under concurrency (one pool, and on PostgreSQL two independent pools standing in for two processes),
// clean-up of expired rows, and the client-address helpers that pick the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import {
  clientAddress,
  normalizeIp,
  RateLimiter,
  rateLimitKeyForIp,
  readClientAddressSettings,
  secondsUntilAllowed,
} from '../../src/server/rate-limit/index.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/db.ts';

let database: TestDatabase;
let handle: DatabaseHandle;
let limiter: RateLimiter;
let bucketSeq = 0;
const bucket = () => `test:${++bucketSeq}`;

/** A minute boundary a day from now: rows written "then" are not expired by a clean-up running now. */
const T0 = Math.floor((Date.now() + 86_400_000) / 60_000) * 60_000;
const at = (seconds: number) => new Date(T0 + seconds * 1000);

function configFor(env: Record<string, string>) {
  return loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    DATABASE_POOL_SIZE: '20',
    ...env,
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await openDatabase(configFor(database.env).database);
  await migrate(handle);
  limiter = new RateLimiter(handle.db);
}, 180_000); // opening an embedded database is slow on a busy machine

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe('consume', () => {
  it('allows `limit` calls in a window, then refuses with a Retry-After inside the window', async () => {
    const b = bucket();
    const results = [];
    for (let i = 0; i < 6; i++)
      results.push(await limiter.consume({ bucket: b, key: '203.0.113.5', limit: 5, windowSeconds: 3600 }));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(results[5]!.retryAfterSeconds).toBeGreaterThan(0);
    expect(results[5]!.retryAfterSeconds).toBeLessThanOrEqual(2 * 3600);
    expect(results[0]!.retryAfterSeconds).toBe(0);
  });

  it('keeps buckets and keys apart', async () => {
    const b1 = bucket();
    const b2 = bucket();
    expect((await limiter.consume({ bucket: b1, key: 'a', limit: 1, windowSeconds: 60 })).allowed).toBe(true);
    expect((await limiter.consume({ bucket: b1, key: 'a', limit: 1, windowSeconds: 60 })).allowed).toBe(false);
    expect((await limiter.consume({ bucket: b1, key: 'b', limit: 1, windowSeconds: 60 })).allowed).toBe(true);
    expect((await limiter.consume({ bucket: b2, key: 'a', limit: 1, windowSeconds: 60 })).allowed).toBe(true);
  });

  it('does not allow a double burst across a window boundary (sliding, not fixed)', async () => {
    const b = bucket();
    for (let i = 0; i < 4; i++)
      expect((await limiter.consume({ bucket: b, key: 'k', limit: 4, windowSeconds: 60, at: at(59) })).allowed).toBe(
        true,
      );
    // A fixed window would start over at 60 s; the sliding estimate still counts 4 × 59/60 of the last window.
    const refused = await limiter.consume({ bucket: b, key: 'k', limit: 4, windowSeconds: 60, at: at(61) });
    expect(refused.allowed).toBe(false);
    // 4 × (1 − f) + 1 ≤ 4 once f ≥ 0.25, i.e. 15 s into the window: 14 s after 61 s.
    expect(refused.retryAfterSeconds).toBe(14);
    expect((await limiter.consume({ bucket: b, key: 'k', limit: 4, windowSeconds: 60, at: at(74) })).allowed).toBe(
      false,
    );
    expect((await limiter.consume({ bucket: b, key: 'k', limit: 4, windowSeconds: 60, at: at(75) })).allowed).toBe(
      true,
    );
    // Half a window later the old window weighs 4 × 0.5 = 2; with the 1 just allowed one more fits.
    expect((await limiter.consume({ bucket: b, key: 'k', limit: 4, windowSeconds: 60, at: at(90) })).allowed).toBe(
      true,
    );
    expect((await limiter.consume({ bucket: b, key: 'k', limit: 4, windowSeconds: 60, at: at(90) })).allowed).toBe(
      false,
    );
  });

  it('does not count refused calls, so hammering does not extend the lock-out', async () => {
    const b = bucket();
    for (let i = 0; i < 3; i++) await limiter.consume({ bucket: b, key: 'k', limit: 3, windowSeconds: 60, at: at(1) });
    for (let i = 0; i < 50; i++)
      expect((await limiter.consume({ bucket: b, key: 'k', limit: 3, windowSeconds: 60, at: at(30) })).allowed).toBe(
        false,
      );
    // Two windows later nothing of the burst is left.
    const later = await limiter.consume({ bucket: b, key: 'k', limit: 3, windowSeconds: 60, at: at(121) });
    expect(later).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('refuses everything with limit 0 and rejects bad arguments', async () => {
    const r = await limiter.consume({ bucket: bucket(), key: 'k', limit: 0, windowSeconds: 60 });
    expect(r.allowed).toBe(false);
    expect(r.retryAfterSeconds).toBe(60);
    await expect(limiter.consume({ bucket: bucket(), key: 'k', limit: 1.5, windowSeconds: 60 })).rejects.toThrow(
      /limit/,
    );
    await expect(limiter.consume({ bucket: bucket(), key: 'k', limit: 1, windowSeconds: 0 })).rejects.toThrow(
      /windowSeconds/,
    );
    await expect(
      limiter.consume({ bucket: bucket(), key: 'k', limit: 1, windowSeconds: '1; drop table x' as unknown as number }),
    ).rejects.toThrow(TypeError);
  });

  it('never lets more than `limit` of many parallel calls through', async () => {
    const b = bucket();
    const results = await Promise.all(
      Array.from({ length: 60 }, () => limiter.consume({ bucket: b, key: 'burst', limit: 7, windowSeconds: 3600 })),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
  });

  it.runIf(!!process.env.DATABASE_URL)(
    'holds the limit across independent connection pools (two processes)',
    async () => {
      const other = await openDatabase(configFor(database.env).database);
      try {
        const a = new RateLimiter(handle.db);
        const c = new RateLimiter(other.db);
        const b = bucket();
        const results = await Promise.all(
          Array.from({ length: 80 }, (_, i) =>
            (i % 2 ? a : c).consume({ bucket: b, key: 'shared', limit: 11, windowSeconds: 3600 }),
          ),
        );
        expect(results.filter((r) => r.allowed)).toHaveLength(11);
      } finally {
        await other.close();
      }
    },
  );

  it('forgets a key on reset', async () => {
    const b = bucket();
    await limiter.consume({ bucket: b, key: 'k', limit: 1, windowSeconds: 60 });
    expect((await limiter.consume({ bucket: b, key: 'k', limit: 1, windowSeconds: 60 })).allowed).toBe(false);
    await limiter.reset(b, 'k');
    expect((await limiter.consume({ bucket: b, key: 'k', limit: 1, windowSeconds: 60 })).allowed).toBe(true);
  });
});

describe('counters that only count failures or slow down', () => {
  it('release gives a counted call back, so a limit can count failures only', async () => {
    const b = bucket();
    for (let i = 0; i < 5; i++) {
      expect((await limiter.consume({ bucket: b, key: 'k', limit: 2, windowSeconds: 60, at: at(i) })).allowed).toBe(
        true,
      );
      await limiter.release(b, 'k'); // it succeeded
    }
    expect((await limiter.consume({ bucket: b, key: 'k', limit: 2, windowSeconds: 60, at: at(6) })).allowed).toBe(true);
    expect((await limiter.consume({ bucket: b, key: 'k', limit: 2, windowSeconds: 60, at: at(7) })).allowed).toBe(true);
    expect((await limiter.consume({ bucket: b, key: 'k', limit: 2, windowSeconds: 60, at: at(8) })).allowed).toBe(
      false,
    );
    // Releasing an unknown key, or one at zero, changes nothing.
    await limiter.release(b, 'nobody');
    expect((await limiter.peek(b, 'nobody', 60, at(8))).count).toBe(0);
  });

  it('record counts without a limit; peek reads the sliding count and the time since the last call without counting', async () => {
    const b = bucket();
    expect(await limiter.peek(b, 'acct', 60, at(0))).toEqual({ count: 0, secondsSinceLast: null });
    for (let i = 0; i < 50; i++) await limiter.record(b, 'acct', 60, at(10));
    expect(await limiter.peek(b, 'acct', 60, at(25))).toEqual({ count: 50, secondsSinceLast: 15 });
    expect(await limiter.peek(b, 'acct', 60, at(25))).toEqual({ count: 50, secondsSinceLast: 15 });
    // Half-way through the next window, half of the previous one still counts; two windows on, nothing.
    expect((await limiter.peek(b, 'acct', 60, at(90))).count).toBeCloseTo(25, 5);
    expect(await limiter.peek(b, 'acct', 60, at(150))).toEqual({ count: 0, secondsSinceLast: null });
  });
});

describe('clean-up', () => {
  it('deletes rows whose windows are over and keeps live ones', async () => {
    const b = bucket();
    await limiter.consume({ bucket: b, key: 'old', limit: 5, windowSeconds: 60, at: at(0) });
    await limiter.consume({ bucket: b, key: 'live', limit: 5, windowSeconds: 60, at: at(200) });
    const count = async () =>
      (
        await handle.withRawClient((c) =>
          c.query<{ n: number }>('select count(*)::int as n from rate_limits where bucket = $1', [b]),
        )
      ).rows[0]!.n;
    expect(await count()).toBe(2);
    // 'old' expired at 120 s (two windows), 'live' lives until 320 s.
    const removed = await limiter.purgeExpired(at(150));
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(1);
  });

  it('cleans up on its own at most once per interval', async () => {
    const eager = new RateLimiter(handle.db, { cleanupIntervalMs: 0 });
    const b = bucket();
    // Rows from the past are expired by now; the next consume sweeps them.
    await eager.consume({ bucket: b, key: 'past', limit: 5, windowSeconds: 60, at: new Date(Date.now() - 3600_000) });
    await eager.consume({ bucket: b, key: 'now', limit: 5, windowSeconds: 60 });
    const rows = (
      await handle.withRawClient((c) => c.query<{ key: string }>('select key from rate_limits where bucket = $1', [b]))
    ).rows;
    expect(rows.map((r) => r.key)).toEqual(['now']);
  });
});

describe('secondsUntilAllowed', () => {
  it('waits for the next window when the current one is full', () => {
    // limit 5 used up 10 s into an hour window: next window starts in 3590 s, then 5 × (1 − f) + 1 ≤ 5 needs f ≥ 0.2.
    expect(secondsUntilAllowed(5, 3600, 0, 5, 10)).toBe(3590 + 720);
  });
  it('waits for the previous window to slide out otherwise', () => {
    expect(secondsUntilAllowed(4, 60, 4, 0, 1)).toBe(14);
    expect(secondsUntilAllowed(0, 60, 0, 0, 0)).toBe(60);
  });
});

describe('client address', () => {
  const req = (xff?: string) => new Request('http://shop.test/api', { headers: xff ? { 'x-forwarded-for': xff } : {} });

  it('uses the socket address unless TRUST_PROXY is set', () => {
    const none = readClientAddressSettings({});
    expect(none.trustedProxies).toBe(0);
    expect(clientAddress(req('198.51.100.7'), '203.0.113.9', none)).toBe('203.0.113.9');
    expect(clientAddress(req(), '::ffff:203.0.113.9', none)).toBe('203.0.113.9');
  });

  it('takes the entry the trusted proxies appended, never one the client wrote', () => {
    const one = readClientAddressSettings({ TRUST_PROXY: 'true' });
    expect(one.trustedProxies).toBe(1);
    expect(clientAddress(req('6.6.6.6, 198.51.100.7'), '10.0.0.2', one)).toBe('198.51.100.7');
    const two = readClientAddressSettings({ TRUST_PROXY: '2' });
    expect(clientAddress(req('6.6.6.6, 198.51.100.7, 10.0.0.3'), '10.0.0.2', two)).toBe('198.51.100.7');
    // Nothing usable in the header: fall back to the socket.
    expect(clientAddress(req('garbage'), '10.0.0.2', one)).toBe('10.0.0.2');
    expect(() => readClientAddressSettings({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
  });

  it('normalizes addresses and keys IPv6 clients by their /64', () => {
    expect(normalizeIp('[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(normalizeIp('192.0.2.1:8080')).toBe('192.0.2.1');
    expect(normalizeIp('not an ip')).toBeNull();
    expect(rateLimitKeyForIp('2001:db8:aa:bb:1:2:3:4')).toBe('2001:db8:aa:bb::/64');
    expect(rateLimitKeyForIp('2001:db8:aa:bb::99')).toBe('2001:db8:aa:bb::/64');
    expect(rateLimitKeyForIp('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitKeyForIp('203.0.113.5')).toBe('203.0.113.5');
    expect(rateLimitKeyForIp(null)).toBe('unknown');
  });
});
