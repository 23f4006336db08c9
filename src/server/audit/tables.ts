/**
 * The audit domain's table: what operators did with customers' personal data (exports and erasures), see
 * 0015_audit_log.sql. Only src/server/audit/ reads or writes it. Rows are never updated.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export type AuditAction = 'customer-export' | 'customer-erase';

export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** `user:<id>` (a shop manager in /admin) or `cli:<os user>` (npm run shop). */
    actor: text('actor').notNull(),
    action: text('action').$type<AuditAction>().notNull(),
    /** The account's id (no foreign key: an erased account is gone, its entry stays). */
    customerId: integer('customer_id').notNull(),
    /** A keyed hash of the account's e-mail address (audit/service.ts): never the address itself. */
    customerRef: text('customer_ref').notNull(),
    /** Counts of what was done (orders anonymised …), never personal data. */
    detail: jsonb('detail').$type<Record<string, number | boolean>>().notNull().default({}),
  },
  (t) => [
    check('audit_log_action_known', sql`${t.action} IN ('customer-export', 'customer-erase')`),
    index('audit_log_customer_ref').on(t.customerRef),
    index('audit_log_at').on(t.at),
  ],
);
