/**
 * Sessions in the WooGraphQL way (contract §1): the client holds a signed JWT (`woocommerce-session`
 * header) naming a customer id; the server keeps that customer's session data (cart, chosen shipping …)
 * in the `sessions` table, so any process can serve any request. A row is written only when a domain
 * stores something (`save`); plain browsing costs no database work.
 */
import crypto from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { withLock, type Database, type DbOrTx } from '../db/connection.ts';
import { sessions } from './tables.ts';

export const SESSION_HEADER = 'woocommerce-session';

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

  constructor(
    private readonly db: Database,
    private readonly options: { secret: string; issuer: string; ttlSeconds: number },
  ) {
    this.key = new TextEncoder().encode(options.secret);
  }

  /** `t_` + 30 hex characters, as WooCommerce's guest customer ids. */
  newGuestId(): string {
    return `t_${crypto.randomBytes(15).toString('hex')}`;
  }

  async sign(customerId: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ data: { customer_id: customerId } })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(this.options.issuer)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + this.options.ttlSeconds)
      .sign(this.key);
  }

  /** Verify a token; returns the customer id or WooGraphQL's error text. */
  async verify(token: string): Promise<{ customerId: string } | { error: string }> {
    if (token.split('.').length !== 3) return { error: 'invalid_token: Wrong number of segments' };
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: this.options.issuer, clockTolerance: 60 });
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
    return { customerId, token: await this.sign(customerId), issue: true, tokenError };
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
