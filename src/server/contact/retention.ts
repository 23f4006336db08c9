/** What the retention sweep (src/server/retention) asks of the contact form's stored messages. */
import { and, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connection.ts';
import { contactMessages } from './tables.ts';

/**
 * Deletes messages sent more than `days` ago; returns how many. A message whose mail to support is still
 * being tried stays, however old: nobody has read it yet.
 */
export async function deleteOldContactMessages(db: DbOrTx, days: number): Promise<number> {
  const gone = await db
    .delete(contactMessages)
    .where(
      and(
        lt(contactMessages.createdAt, sql`now() - make_interval(days => ${days})`),
        ne(contactMessages.mailStatus, 'pending'),
      ),
    )
    .returning({ id: contactMessages.id });
  return gone.length;
}
