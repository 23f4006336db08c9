/**
 * The operators' audit log of personal data: every export and erasure of a customer's data made from
 * /admin or the command line writes an entry, in the transaction of what it records (an erasure and its
 * entry commit together). The customer is named by id and by a reference that cannot be turned back
 * into the address: HMAC-SHA256 of the lower-cased e-mail with a key derived from the session secret
 * (a plain hash of an address can be reversed by hashing guesses; without the secret it cannot). With
 * the secret, the shop can still answer "was x@example.com erased?" by computing the reference again.
 */
import crypto from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/connection.ts';
import { auditLog, type AuditAction } from './tables.ts';

export type { AuditAction } from './tables.ts';
export type AuditEntry = typeof auditLog.$inferSelect;

export type AuditRecord = {
  actor: string;
  action: AuditAction;
  customer: { id: number; email: string };
  detail?: Record<string, number | boolean>;
};

export class AuditLog {
  private readonly key: Buffer;

  constructor(
    private readonly db: Database,
    secret: string,
  ) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', secret, 'meshfront', 'audit customer reference', 32));
  }

  /** The reference of an e-mail address (the same for any case and surrounding spaces). */
  customerRef(email: string): string {
    return crypto.createHmac('sha256', this.key).update(email.trim().toLowerCase()).digest('base64url');
  }

  async record(tx: DbOrTx, entry: AuditRecord): Promise<AuditEntry> {
    const [row] = await tx
      .insert(auditLog)
      .values({
        actor: entry.actor,
        action: entry.action,
        customerId: entry.customer.id,
        customerRef: this.customerRef(entry.customer.email),
        detail: entry.detail ?? {},
      })
      .returning();
    return row!;
  }

  /** Entries, newest first; only those of `email` when given. */
  async list(filter: {
    email?: string | null;
    limit: number;
    offset: number;
  }): Promise<{ total: number; rows: AuditEntry[] }> {
    const where = filter.email ? eq(auditLog.customerRef, this.customerRef(filter.email)) : undefined;
    const [counted] = await this.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(where);
    const rows = await this.db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(filter.limit)
      .offset(filter.offset);
    return { total: Number(counted?.n ?? 0), rows };
  }
}
