/** What the retention sweep (src/server/retention) asks of the newsletter's sign-ups. */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connection.ts';
import { newsletterSubscribers } from './tables.ts';

/**
 * Deletes sign-ups never confirmed within `days` of the last sign-up; returns how many. Without the confirmation
 * there is no consent to keep the address for; confirmed and unsubscribed rows stay (the proof of consent,
 * and the record that the address asked not to get mail).
 */
export async function deleteUnconfirmedSignUps(db: DbOrTx, days: number): Promise<number> {
  const gone = await db
    .delete(newsletterSubscribers)
    .where(
      and(
        eq(newsletterSubscribers.status, 'pending'),
        lt(newsletterSubscribers.updatedAt, sql`now() - make_interval(days => ${days})`),
      ),
    )
    .returning({ id: newsletterSubscribers.id });
  return gone.length;
}
