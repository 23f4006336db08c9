/** Newsletter subscribers for store operators: the list by status and the CSV rows (never the token hashes). */
import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { newsletterSubscribers } from './tables.ts';

export type SubscriberStatus = 'pending' | 'confirmed' | 'unsubscribed';
export type SubscriberRow = {
  id: number;
  email: string;
  locale: string;
  status: string;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
  createdAt: Date;
};

const columns = {
  id: newsletterSubscribers.id,
  email: newsletterSubscribers.email,
  locale: newsletterSubscribers.locale,
  status: newsletterSubscribers.status,
  confirmedAt: newsletterSubscribers.confirmedAt,
  unsubscribedAt: newsletterSubscribers.unsubscribedAt,
  createdAt: newsletterSubscribers.createdAt,
};

export class NewsletterOperator {
  constructor(private readonly db: Database) {}

  async list(filter: {
    status?: SubscriberStatus | null;
    limit: number;
    offset: number;
  }): Promise<{ total: number; rows: SubscriberRow[] }> {
    const where = filter.status ? eq(newsletterSubscribers.status, filter.status) : undefined;
    const [c] = await this.db.select({ n: sql<number>`count(*)::int` }).from(newsletterSubscribers).where(where);
    const rows = await this.db
      .select(columns)
      .from(newsletterSubscribers)
      .where(where)
      .orderBy(desc(newsletterSubscribers.createdAt), desc(newsletterSubscribers.id))
      .limit(filter.limit)
      .offset(filter.offset);
    return { total: Number(c?.n ?? 0), rows };
  }

  async all(status?: SubscriberStatus | null): Promise<SubscriberRow[]> {
    const where = status ? eq(newsletterSubscribers.status, status) : undefined;
    return this.db
      .select(columns)
      .from(newsletterSubscribers)
      .where(where)
      .orderBy(newsletterSubscribers.createdAt, newsletterSubscribers.id);
  }
}
