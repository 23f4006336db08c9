// The woocommerce-session header (WooGraphQL's session rules), database-backed sessions, CORS and GET/POST handling.
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionService } from '../../src/server/session/service.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
}, ENGINE_START_TIMEOUT_MS);

const QUERY = `{ allowedCountries }`;
const tokenOf = (headers: Headers) => headers.get('woocommerce-session');

describe('woocommerce-session', () => {
  it('issues a signed guest token to a request without one', async () => {
    const r = await t.gql(QUERY);
    expect(r.status).toBe(200);
    const token = tokenOf(r.headers)!;
    expect(token.split('.')).toHaveLength(3);
    expect(token.startsWith('Session ')).toBe(false);
    const claims = decodeJwt(token) as {
      iss: string;
      iat: number;
      nbf: number;
      exp: number;
      data: { customer_id: string };
    };
    expect(claims.data.customer_id).toMatch(/^t_[0-9a-f]{30}$/);
    expect(claims.iss).toBe('http://meshfront.test');
    expect(claims.exp - claims.iat).toBe(48 * 3600);
    expect(claims.nbf).toBe(claims.iat);
  });

  it('gives every token-less request its own new session', async () => {
    const a = tokenOf((await t.gql(QUERY)).headers)!;
    const b = tokenOf((await t.gql(QUERY)).headers)!;
    expect(decodeJwt(a).data).not.toEqual(decodeJwt(b).data);
  });

  it('accepts "Session <token>" and then sends no new header', async () => {
    const token = tokenOf((await t.gql(QUERY)).headers)!;
    const again = await t.gql(QUERY, {}, { 'woocommerce-session': `Session ${token}` });
    expect(again.status).toBe(200);
    expect(tokenOf(again.headers)).toBeNull();
  });

  it('replaces an invalid, expired, foreign or un-prefixed token with a new session', async () => {
    const good = tokenOf((await t.gql(QUERY)).headers)!;
    const now = Math.floor(Date.now() / 1000);
    const key = new TextEncoder().encode('test-secret-that-is-long-enough-for-hs256-0123456789');
    const expired = await new SignJWT({ data: { customer_id: 't_expired' } })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('http://meshfront.test')
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(key);
    const foreignIssuer = await new SignJWT({ data: { customer_id: 't_x' } })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('https://evil.example')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    const otherKey = await new SignJWT({ data: { customer_id: 't_x' } })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('http://meshfront.test')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    for (const header of [
      `Session ${good.slice(0, -3)}abc`,
      `Session ${expired}`,
      `Session ${foreignIssuer}`,
      `Session ${otherKey}`,
      good,
      'Session not-a-jwt',
    ]) {
      const r = await t.gql(QUERY, {}, { 'woocommerce-session': header });
      expect(r.status, header).toBe(200);
      const fresh = tokenOf(r.headers);
      expect(fresh, header).toBeTruthy();
      expect(fresh).not.toBe(good);
    }
  });

  it('explains why a token was refused, in WooGraphQL words (for the cart domain)', async () => {
    const s = t.engine.sessions;
    expect((await s.fromHeader('Session a.b')).tokenError).toBe('invalid_token: Wrong number of segments');
    const foreign = new SessionService(t.engine.database.db, {
      secret: 'x'.repeat(40),
      issuer: 'http://meshfront.test',
      ttlSeconds: 60,
    });
    expect((await s.fromHeader(`Session ${await foreign.sign('t_abc')}`)).tokenError).toBe(
      'invalid_token: Signature verification failed',
    );
    const otherIssuer = new SessionService(t.engine.database.db, {
      secret: 'test-secret-that-is-long-enough-for-hs256-0123456789',
      issuer: 'https://elsewhere',
      ttlSeconds: 60,
    });
    expect((await s.fromHeader(`Session ${await otherIssuer.sign('t_abc')}`)).tokenError).toBe(
      'invalid_token: The iss do not match with this server',
    );
    const expired = new SessionService(t.engine.database.db, {
      secret: 'test-secret-that-is-long-enough-for-hs256-0123456789',
      issuer: 'http://meshfront.test',
      ttlSeconds: -3600,
    });
    expect((await s.fromHeader(`Session ${await expired.sign('t_abc')}`)).tokenError).toBe(
      'invalid_token: Expired token',
    );
    const ok = await s.fromHeader(`Session ${await s.sign('t_abc')}`);
    expect(ok).toMatchObject({ customerId: 't_abc', issue: false, tokenError: null });
  });

  it('keeps session data in the database, visible to another engine process', async () => {
    const id = t.engine.sessions.newGuestId();
    await t.engine.sessions.save(id, { cart: { items: 2 } });
    // A second service on the same database stands in for another API process.
    const other = new SessionService(t.engine.database.db, {
      secret: 'test-secret-that-is-long-enough-for-hs256-0123456789',
      issuer: 'http://meshfront.test',
      ttlSeconds: 3600,
    });
    expect(await other.load(id)).toEqual({ cart: { items: 2 } });
    const result = await other.update(id, async (data) => ({ data: { ...data, chosen: 'flat_rate:1' }, result: 'ok' }));
    expect(result).toBe('ok');
    expect(await t.engine.sessions.load(id)).toEqual({ cart: { items: 2 }, chosen: 'flat_rate:1' });
    await t.engine.sessions.destroy(id);
    expect(await t.engine.sessions.load(id)).toEqual({});
  });

  it('serialises concurrent updates of one session', async () => {
    const id = t.engine.sessions.newGuestId();
    await Promise.all(
      Array.from({ length: 8 }, () =>
        t.engine.sessions.update(id, async (data) => ({ data: { n: ((data.n as number) ?? 0) + 1 }, result: null })),
      ),
    );
    expect(await t.engine.sessions.load(id)).toEqual({ n: 8 });
  });

  it('purges expired sessions', async () => {
    const short = new SessionService(t.engine.database.db, { secret: 'x'.repeat(40), issuer: 'i', ttlSeconds: -10 });
    await short.save('t_old', { a: 1 });
    expect(await t.engine.sessions.load('t_old')).toEqual({});
    expect(await t.engine.sessions.purgeExpired()).toBeGreaterThanOrEqual(1);
  });
});

describe('HTTP', () => {
  it('answers CORS preflights for configured origins with credentials and the session/auth headers', async () => {
    const r = await t.fetch({
      method: 'OPTIONS',
      headers: {
        origin: 'http://shop.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,woocommerce-session,authorization',
      },
    });
    expect(r.status).toBeLessThan(300);
    expect(r.headers.get('access-control-allow-origin')).toBe('http://shop.test');
    expect(r.headers.get('access-control-allow-credentials')).toBe('true');
    const allowed = r.headers.get('access-control-allow-headers')!.toLowerCase();
    expect(allowed).toContain('woocommerce-session');
    expect(allowed).toContain('authorization');
    expect(r.headers.get('woocommerce-session')).toBeNull();
  });

  it('exposes the session header to configured origins and does not echo other origins', async () => {
    const body = JSON.stringify({ query: QUERY });
    const ok = await t.fetch({
      method: 'POST',
      headers: { origin: 'http://shop.test', 'content-type': 'application/json' },
      body,
    });
    expect(ok.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('woocommerce-session');
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://shop.test');
    const evil = await t.fetch({
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body,
    });
    expect(evil.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
  });

  it('allows GET for queries but not for mutations', async () => {
    const get = await t.fetch({
      path: `/graphql?query=${encodeURIComponent(QUERY)}`,
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    expect(get.status).toBe(200);
    expect((await get.json()).data.allowedCountries).toContain('DE');
    const mutation = await t.fetch({
      path: `/graphql?query=${encodeURIComponent('mutation { _noop }')}`,
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    expect(mutation.status).toBe(405);
    const body = await mutation.text();
    expect(body).not.toMatch(/\bat .*\.(ts|js):\d+/);
  });

  it('answers a syntax error with a GraphQL error, not a 500', async () => {
    const r = await t.gql('{ products(');
    expect(r.status).toBeLessThan(500);
    expect(r.body.errors?.[0]?.message).toMatch(/Syntax Error/);
    expect(JSON.stringify(r.body)).not.toMatch(/\bat .*\.(ts|js):\d+/);
  });

  it('answers malformed requests with 4xx and a message, never a stack trace', async () => {
    for (const init of [
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' },
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ nothing: true }) },
      { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY }) },
    ]) {
      const r = await t.fetch(init);
      expect(r.status, init.body).toBeGreaterThanOrEqual(400);
      expect(r.status, init.body).toBeLessThan(500);
      const text = await r.text();
      expect(text, init.body).not.toMatch(/\bat .*\.(ts|js|mjs|cjs):\d+/);
      expect(text).not.toMatch(/"stack"/);
    }
  });
});
