/**
 * Sessions in the WooGraphQL way: the client holds a signed JWT (`woocommerce-session`
 * header) naming a customer id; the server keeps that customer's session data (cart, chosen shipping …)
 * in the `sessions` table, so any process can serve any request. A row is written only when a domain
 * stores something (`save`); plain browsing costs no database work.
 */
import crypto from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify } from 'jose';
import { isSingleProcess, withKeyLock, withLock, type Database, type DbOrTx } from '../db/connection.ts';
import { SessionCache } from './cache.ts';
import type { SessionCookieSettings } from './cookie.ts';
import { sessions } from './tables.ts';
import { SessionWriteBatch } from './write-batch.ts';

export const SESSION_HEADER = 'woocommerce-session';

/**
 * Whether a session id is a customer's (their numeric user id) rather than a guest's (`t_…`). A
 * customer's session holds their cart and addresses and books orders to them, so it serves only a
 * request logged in as that customer (auth/plugin.ts); presented without that login it is not used.
 */
export const isCustomerSessionId = (customerId: string): boolean => /^\d+$/.test(customerId);

/** base64url of {"alg":"HS256","typ":"JWT"}: the only protected header this engine issues. */
const JWT_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
/** Leeway for clocks of other processes/machines, as WooGraphQL's JWT library allows. */
const CLOCK_TOLERANCE_S = 60;

export type SessionState = {
  customerId: string;
  /** The token to send back (a new one when `issue` is true). */
  token: string;
  /** Send `woocommerce-session: <token>` on this response (new session, or a domain changed the session). */
  issue: boolean;
  /** Why the incoming token was refused (`invalid_token: Expired token` …); cart operations report it. */
  tokenError: string | null;
};

/**
 * One cache per single-process database, shared by every SessionService on it (tests build extra services
 * on the engine's database: they must see each other's writes, as the table would show them).
 */
const sharedCaches = new WeakMap<object, SessionCache>();
/** Likewise one group-commit queue per single-process database (see write-batch.ts). */
const sharedBatches = new WeakMap<object, SessionWriteBatch>();

/** Cache changes waiting for the commit of a transaction begun by `update`. */
type Pending = (() => void)[];

export class SessionService {
  private readonly key: Uint8Array;
  /** The same secret as a KeyObject: node:crypto re-imports a raw key on every createHmac call otherwise (~5× slower). */
  private readonly hmacKey: crypto.KeyObject;
  /** Random bytes fetched in blocks for guest ids (one CSPRNG call per 272 ids instead of one each). */
  private randomPool = Buffer.alloc(0);
  private randomOffset = 0;
  /** The authoritative copy of `sessions` (single-process databases only; null on PostgreSQL, where other processes write too). */
  readonly cache: SessionCache | null;
  /** The session cookie's settings when the shop hands tokens out as a cookie too (null: header only). */
  get cookie(): SessionCookieSettings | null {
    return this.options.cookie ?? null;
  }
  /** Group commit of session writes made outside a transaction (single-process databases only). */
  private readonly batch: SessionWriteBatch | null;
  /** Transactions begun by `update`: their session writes reach the cache after the commit. */
  private readonly pending = new WeakMap<object, Pending>();
  /** Bumped by every session write of this service: a per-request memo of a load is valid while it is unchanged. */
  private writeSerial = 0;
  private readonly memo = new WeakMap<
    object,
    { customerId: string; serial: number; data: Promise<Record<string, unknown>> }
  >();

  constructor(
    private readonly db: Database,
    private readonly options: {
      secret: string;
      issuer: string;
      ttlSeconds: number;
      cache?: SessionCache;
      /** Also hand tokens out as a cookie (session/cookie.ts); null: the header only. */
      cookie?: SessionCookieSettings | null;
    },
  ) {
    this.key = new TextEncoder().encode(options.secret);
    this.hmacKey = crypto.createSecretKey(this.key);
    if (options.cache) this.cache = options.cache;
    else if (isSingleProcess(db)) {
      let shared = sharedCaches.get(db);
      if (!shared) {
        shared = new SessionCache();
        sharedCaches.set(db, shared);
      }
      this.cache = shared;
    } else this.cache = null;
    if (this.cache) {
      let batch = sharedBatches.get(db);
      if (!batch) {
        batch = new SessionWriteBatch(db);
        sharedBatches.set(db, batch);
      }
      this.batch = batch;
    } else this.batch = null;
  }

  /** `t_` + 30 hex characters, as WooCommerce's guest customer ids. */
  newGuestId(): string {
    if (this.randomOffset + 15 > this.randomPool.length) {
      this.randomPool = crypto.randomBytes(15 * 272);
      this.randomOffset = 0;
    }
    const start = this.randomOffset;
    this.randomOffset += 15;
    const id = this.randomPool.toString('hex', start, this.randomOffset);
    return `t_${id}`;
  }

  async sign(customerId: string): Promise<string> {
    return this.signNow(customerId);
  }

  /**
   * The same compact HS256 JWT jose's SignJWT makes (header {"alg":"HS256","typ":"JWT"}), signed with
   * node:crypto synchronously: every token-less request (each first visit, every crawler hit) mints one,
   * and jose's WebCrypto path costs a thread-pool round trip per token.
   */
  signNow(customerId: string): string {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      data: { customer_id: customerId },
      iss: this.options.issuer,
      iat: now,
      nbf: now,
      exp: now + this.options.ttlSeconds,
    };
    const signingInput = `${JWT_HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    return `${signingInput}.${crypto.createHmac('sha256', this.hmacKey).update(signingInput).digest('base64url')}`;
  }

  /**
   * The customer id of a token that is certainly valid (HS256 with our key, our issuer, inside its
   * validity window), checked synchronously; null means "not certain": the caller falls back to jose,
   * which also names the reason. Stricter than jose on purpose (header must be exactly alg + typ), so
   * it never accepts what jose would refuse.
   */
  quickVerify(token: string): string | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [head, body, signature] = parts as [string, string, string];
    if (head !== JWT_HEADER) return null;
    const expected = crypto.createHmac('sha256', this.hmacKey).update(`${head}.${body}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (
      given.length !== expected.length ||
      !crypto.timingSafeEqual(given, expected) ||
      given.toString('base64url') !== signature
    )
      return null;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) return null;
    const c = claims as {
      iss?: unknown;
      exp?: unknown;
      nbf?: unknown;
      iat?: unknown;
      data?: { customer_id?: unknown };
    };
    const now = Math.floor(Date.now() / 1000);
    if (c.iss !== this.options.issuer) return null;
    if (typeof c.exp !== 'number' || c.exp <= now - CLOCK_TOLERANCE_S) return null;
    if (c.nbf !== undefined && (typeof c.nbf !== 'number' || c.nbf > now + CLOCK_TOLERANCE_S)) return null;
    if (c.iat !== undefined && typeof c.iat !== 'number') return null;
    const customerId = c.data && typeof c.data === 'object' ? c.data.customer_id : undefined;
    if (typeof customerId === 'string' || (typeof customerId === 'number' && Number.isFinite(customerId)))
      return String(customerId);
    return null;
  }

  /** Verify a token; returns the customer id or WooGraphQL's error text. */
  async verify(token: string): Promise<{ customerId: string } | { error: string }> {
    if (token.split('.').length !== 3) return { error: 'invalid_token: Wrong number of segments' };
    const quick = this.quickVerify(token);
    if (quick !== null) return { customerId: quick };
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: this.options.issuer,
        clockTolerance: CLOCK_TOLERANCE_S,
      });
      const customerId = (payload.data as { customer_id?: unknown } | undefined)?.customer_id;
      if (typeof customerId !== 'string' && typeof customerId !== 'number')
        return { error: 'invalid_token: Customer ID not found in the token' };
      return { customerId: String(customerId) };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return { error: 'invalid_token: Expired token' };
      if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'iss')
        return { error: 'invalid_token: The iss do not match with this server' };
      if (err instanceof joseErrors.JWSSignatureVerificationFailed)
        return { error: 'invalid_token: Signature verification failed' };
      return { error: `invalid_token: ${(err as Error).message}` };
    }
  }

  /**
   * The session of a request from its `woocommerce-session` header value. A missing or invalid token
   * starts a new guest session whose token goes out in the response header.
   */
  async fromHeader(headerValue: string | null): Promise<SessionState> {
    let tokenError: string | null = null;
    if (headerValue) {
      const m = /^Session\s+(\S+)$/i.exec(headerValue.trim());
      if (!m) tokenError = 'invalid_cart_token: The session header must be "Session <token>".';
      else {
        const r = await this.verify(m[1]!);
        if ('customerId' in r) return { customerId: r.customerId, token: m[1]!, issue: false, tokenError: null };
        tokenError = r.error;
      }
    }
    const customerId = this.newGuestId();
    return { customerId, token: this.signNow(customerId), issue: true, tokenError };
  }

  /**
   * `fromHeader` without awaiting for the common cases (a valid token, or none): the catalog fast path
   * (http/fast-path.ts) answers from memory and only needs to know whether to send a new token.
   * Returns null when the header needs jose's full verification (to learn why it is invalid).
   */
  fromHeaderNow(headerValue: string | null | undefined): SessionState | null {
    if (!headerValue) {
      const customerId = this.newGuestId();
      return { customerId, token: this.signNow(customerId), issue: true, tokenError: null };
    }
    const m = /^Session\s+(\S+)$/i.exec(headerValue.trim());
    const customerId = m ? this.quickVerify(m[1]!) : null;
    return customerId === null ? null : { customerId, token: m![1]!, issue: false, tokenError: null };
  }

  /**
   * Serves the request as a new, empty guest session instead of the one it presented (a customer's
   * session without that customer's login, or the session a logout just ended): new guest id, its token
   * sent in the response header. The presented session's stored data stays for its owner's next login.
   */
  startGuest(state: SessionState): void {
    state.customerId = this.newGuestId();
    state.token = this.signNow(state.customerId);
    state.issue = true;
    state.tokenError = null;
  }

  /** A fresh token for the same customer (after a session-changing mutation or for `sessionToken` fields). */
  async reissue(state: SessionState): Promise<string> {
    state.token = await this.sign(state.customerId);
    state.issue = true;
    return state.token;
  }

  /** Stored session data ({} when none or expired). Each call returns a new object the caller may change. */
  async load(customerId: string, db: DbOrTx = this.db): Promise<Record<string, unknown>> {
    const cache = this.cache;
    if (cache) {
      // The cache holds committed state: right for a reader inside a transaction too, unless that
      // transaction itself wrote the session (then its pending change is not in the cache yet).
      const hit = this.pending.get(db)?.length ? undefined : cache.get(customerId);
      if (hit) return hit;
      const writes = cache.writeCount;
      const [row] = await db
        .select({ data: sessions.data, expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(and(eq(sessions.customerId, customerId), gt(sessions.expiresAt, sql`now()`)));
      // Only a read outside any transaction, or in update's own one before it wrote, shows committed state.
      if (db === this.db || this.pending.get(db)?.length === 0)
        cache.fill(customerId, row?.data ?? null, row?.expiresAt ?? null, writes);
      return row?.data ?? {};
    }
    const [row] = await db
      .select({ data: sessions.data })
      .from(sessions)
      .where(and(eq(sessions.customerId, customerId), gt(sessions.expiresAt, sql`now()`)));
    return row?.data ?? {};
  }

  /**
   * `load` once per request: `scope` is an object living as long as the request (its SessionState). The
   * answer is reused while this process wrote no session since (a mutation in the same request reloads).
   */
  loadOnce(scope: object, customerId: string): Promise<Record<string, unknown>> {
    const m = this.memo.get(scope);
    if (m && m.customerId === customerId && m.serial === this.writeSerial)
      return m.data.then((d) => structuredClone(d));
    const data = this.load(customerId);
    this.memo.set(scope, { customerId, serial: this.writeSerial, data });
    data.catch(() => this.memo.get(scope)?.data === data && this.memo.delete(scope));
    // The memo keeps the first answer; every caller gets its own copy to change.
    return data.then((d) => structuredClone(d));
  }

  async save(customerId: string, data: Record<string, unknown>, db: DbOrTx = this.db): Promise<void> {
    const expiresAt = new Date(Date.now() + this.options.ttlSeconds * 1000);
    // Taken now: the caller's object may change after the write, the cached copy must not.
    const json = this.cache ? JSON.stringify(data) : null;
    if (this.batch && db === this.db) {
      // Outside a transaction on PGlite: written together with other sessions' concurrent writes.
      await this.batch.write({ customerId, json: json!, expiresAt });
      return this.afterWrite(db, customerId, () => this.cache!.written(customerId, json, expiresAt));
    }
    await db
      .insert(sessions)
      .values({ customerId, data, expiresAt })
      .onConflictDoUpdate({ target: sessions.customerId, set: { data, expiresAt, updatedAt: sql`now()` } });
    this.afterWrite(db, customerId, () => this.cache!.written(customerId, json, expiresAt));
  }

  async destroy(customerId: string, db: DbOrTx = this.db): Promise<void> {
    await db.delete(sessions).where(eq(sessions.customerId, customerId));
    this.afterWrite(db, customerId, () => this.cache!.written(customerId, null, null));
  }

  /**
   * Bring the cache up to date with a write that just ran on `db`: now if it ran outside a transaction,
   * at the commit of a transaction begun by `update`. A write in a transaction begun elsewhere cannot be
   * followed to its end: the session is forgotten, so later reads go to the table (which on PGlite wait
   * for that transaction to end).
   */
  private afterWrite(db: DbOrTx, customerId: string, apply: () => void): void {
    this.writeSerial++;
    if (!this.cache) return;
    if (db === this.db) {
      apply();
      return;
    }
    const pending = this.pending.get(db);
    if (pending) pending.push(apply);
    else this.cache.forget(customerId);
  }

  /**
   * Read-modify-write a session under a per-session lock (session mutations are serialised
   * per session, across processes); `fn` returns the new data, or undefined to leave it unchanged.
   * `atomic: false` says `fn` only reads: the save is then the one write, which needs no transaction of its
   * own where the lock is in-process (PGlite); on PostgreSQL the advisory-lock transaction stays.
   */
  async update<T>(
    customerId: string,
    fn: (data: Record<string, unknown>, tx: DbOrTx) => Promise<{ data?: Record<string, unknown>; result: T }>,
    options: { atomic?: boolean } = {},
  ): Promise<T> {
    const key = `session:${customerId}`;
    const body = async (tx: DbOrTx) => {
      const current = await this.load(customerId, tx);
      const { data, result } = await fn(current, tx);
      if (data) await this.save(customerId, data, tx);
      return result;
    };
    if (!this.cache) return withLock(this.db, key, body);
    if (options.atomic === false) return withKeyLock(this.db, key, body);
    const pending: Pending = [];
    const result = await withLock(this.db, key, (tx) => {
      this.pending.set(tx, pending);
      return body(tx);
    });
    // Committed: now the cache may show what the transaction wrote (and per-request memos reload).
    for (const apply of pending) apply();
    if (pending.length) this.writeSerial++;
    return result;
  }

  async purgeExpired(): Promise<number> {
    const rows = await this.db
      .delete(sessions)
      .where(lt(sessions.expiresAt, sql`now()`))
      .returning({ id: sessions.customerId });
    this.writeSerial++;
    // Expired entries already read as "no session"; dropping them frees the memory (the table may also
    // have judged a row expired a moment before this process's clock does: those are forgotten by id).
    if (this.cache) {
      this.cache.forgetExpired();
      for (const r of rows) this.cache.forget(r.id);
    }
    return rows.length;
  }
}
