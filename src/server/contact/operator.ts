/** Contact messages for store operators: the inbox (newest first), answered/unanswered, and CSV rows. */
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { contactMessages } from './tables.ts';

export type ContactMessageRow = typeof contactMessages.$inferSelect;

export class ContactOperator {
  constructor(private readonly db: Database) {}

  async list(filter: {
    answered?: boolean | null;
    limit: number;
    offset: number;
  }): Promise<{ total: number; rows: ContactMessageRow[] }> {
    const where =
      filter.answered === true
        ? isNotNull(contactMessages.answeredAt)
        : filter.answered === false
          ? isNull(contactMessages.answeredAt)
          : undefined;
    const [c] = await this.db.select({ n: sql<number>`count(*)::int` }).from(contactMessages).where(where);
    const rows = await this.db
      .select()
      .from(contactMessages)
      .where(where)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(filter.limit)
      .offset(filter.offset);
    return { total: Number(c?.n ?? 0), rows };
  }

  async countUnanswered(): Promise<number> {
    const [c] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(contactMessages)
      .where(isNull(contactMessages.answeredAt));
    return Number(c?.n ?? 0);
  }

  /** Marks a message answered (now) or not; null when there is no such message. */
  async setAnswered(id: number, answered: boolean): Promise<ContactMessageRow | null> {
    const [row] = await this.db
      .update(contactMessages)
      .set({ answeredAt: answered ? sql`coalesce(${contactMessages.answeredAt}, now())` : null })
      .where(and(eq(contactMessages.id, id)))
      .returning();
    return row ?? null;
  }

  /** Every message, oldest first (for the CSV export). */
  async all(): Promise<ContactMessageRow[]> {
    return this.db.select().from(contactMessages).orderBy(contactMessages.createdAt, contactMessages.id);
  }
}
