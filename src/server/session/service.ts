/**
 * Sessions in the WooGraphQL way (contract §1): the client holds a signed JWT (`woocommerce-session`
 * header) naming a customer id; the server keeps that customer's session data (cart, chosen shipping …)
 * in the `sessions` table, so any process can serve any request. A row is written only when a domain
 * stores something (`save`); plain browsing costs no database work.
 */
import crypto from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify } from 'jose';
import { withLock, type Database, type DbOrTx } from '../db/connection.ts';
import { sessions } from './tables.ts';

export const SESSION_HEADER = 'woocommerce-session';

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

export class SessionService {
  private readonly key: Uint8Array;
  /** The same secret as a KeyObject: node:crypto re-imports a raw key on every createHmac call otherwise (~5× slower). */
  private readonly hmacKey: crypto.KeyObject;
  /** Random bytes fetched in blocks for guest ids (one CSPRNG call per 272 ids instead of one each). */
  private randomPool = Buffer.alloc(0);
  private randomOffset = 0;

  constructor(
    private readonly db: Database,
    private readonly options: { secret: string; issuer: string; ttlSeconds: number },
  ) {
    this.key = new TextEncoder().encode(options.secret);
    this.hmacKey = crypto.createSecretKey(this.key);
  }

  /** `t_` + 30 hex characters, as WooCommerce's guest customer ids. */
  newGuestId(): string {
    if (this.randomOffset + 15 > this.randomPool.length) {
      this.randomPool = crypto.randomBytes(15 * 272);
      this.randomOffset = 0;
    }
    const id = this.randomPool.toString('hex', this.randomOffset, (this.randomOffset += 15));
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
    const claims = { data: { customer_id: customerId }, iss: this.options.issuer, iat: now, nbf: now, exp: now + this.options.ttlSeconds };
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
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected) || given.toString('base64url') !== signature) return null;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) return null;
    const c = claims as { iss?: unknown; exp?: unknown; nbf?: unknown; iat?: unknown; data?: { customer_id?: unknown } };
    const now = Math.floor(Date.now() / 1000);
    if (c.iss !== this.options.issuer) return null;
    if (typeof c.exp !== 'number' || c.exp <= now - CLOCK_TOLERANCE_S) return null;
    if (c.nbf !== undefined && (typeof c.nbf !== 'number' || c.nbf > now + CLOCK_TOLERANCE_S)) return null;
    if (c.iat !== undefined && typeof c.iat !== 'number') return null;
    const customerId = c.data && typeof c.data === 'object' ? c.data.customer_id : undefined;
    if (typeof customerId === 'string' || (typeof customerId === 'number' && Number.isFinite(customerId))) return String(customerId);
    return null;
  }

  /** Verify a token; returns the customer id or WooGraphQL's error text. */
  async verify(token: string): Promise<{ customerId: string } | { error: string }> {
    if (token.split('.').length !== 3) return { error: 'invalid_token: Wrong number of segments' };
    const quick = this.quickVerify(token);
    if (quick !== null) return { customerId: quick };
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: this.options.issuer, clockTolerance: CLOCK_TOLERANCE_S });
      const customerId = (payload.data as { customer_id?: unknown } | undefined)?.customer_id;
      if (typeof customerId !== 'string' && typeof customerId !== 'number') return { error: 'invalid_token: Customer ID not found in the token' };
      return { customerId: String(customerId) };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return { error: 'invalid_token: Expired token' };
      if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'iss') return { error: 'invalid_token: The iss do not match with this server' };
      if (err instanceof joseErrors.JWSSignatureVerificationFailed) return { error: 'invalid_token: Signature verification failed' };
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

  /** A fresh token for the same customer (after a session-changing mutation or for `sessionToken` fields). */
  async reissue(state: SessionState): Promise<string> {
    state.token = await this.sign(state.customerId);
    state.issue = true;
    return state.token;
  }

  /** Stored session data ({} when none or expired); slides the expiry like WooCommerce. */
  async load(customerId: string, db: DbOrTx = this.db): Promise<Record<string, unknown>> {
    const [row] = await db
      .select({ data: sessions.data })
      .from(sessions)
      .where(and(eq(sessions.customerId, customerId), gt(sessions.expiresAt, sql`now()`)));
    return row?.data ?? {};
  }

  async save(customerId: string, data: Record<string, unknown>, db: DbOrTx = this.db): Promise<void> {
    const expiresAt = new Date(Date.now() + this.options.ttlSeconds * 1000);
    await db
      .insert(sessions)
      .values({ customerId, data, expiresAt })
      .onConflictDoUpdate({ target: sessions.customerId, set: { data, expiresAt, updatedAt: sql`now()` } });
  }

  async destroy(customerId: string, db: DbOrTx = this.db): Promise<void> {
    await db.delete(sessions).where(eq(sessions.customerId, customerId));
  }

  /**
   * Read-modify-write a session under a per-session lock (contract §1.6: session mutations are serialised
   * per session, across processes); `fn` returns the new data, or undefined to leave it unchanged.
   */
  async update<T>(customerId: string, fn: (data: Record<string, unknown>, tx: DbOrTx) => Promise<{ data?: Record<string, unknown>; result: T }>): Promise<T> {
    return withLock(this.db, `session:${customerId}`, async (tx) => {
      const current = await this.load(customerId, tx);
      const { data, result } = await fn(current, tx);
      if (data) await this.save(customerId, data, tx);
      return result;
    });
  }

  async purgeExpired(): Promise<number> {
    const rows = await this.db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`)).returning({ id: sessions.customerId });
    return rows.length;
  }
}
