/** What a customer's data export and erasure (src/server/privacy) read and delete of the contact form's stored messages. */
import { desc, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connection.ts';
import { contactMessages } from './tables.ts';

/** The messages sent from `email`, newest first, as the visitor wrote them. */
export async function contactMessagesFrom(db: DbOrTx, email: string) {
  return db
    .select({
      sentAt: contactMessages.createdAt,
      firstName: contactMessages.firstName,
      lastName: contactMessages.lastName,
      email: contactMessages.email,
      phone: contactMessages.phone,
      message: contactMessages.message,
      answeredAt: contactMessages.answeredAt,
    })
    .from(contactMessages)
    .where(sql`lower(${contactMessages.email}) = ${email.trim().toLowerCase()}`)
    .orderBy(desc(contactMessages.createdAt));
}

/** Erasing a customer (src/server/privacy/erase.ts): the messages sent from `email` are deleted. */
export async function eraseContactMessagesFrom(tx: DbOrTx, email: string): Promise<number> {
  const rows = await tx
    .delete(contactMessages)
    .where(sql`lower(${contactMessages.email}) = ${email.trim().toLowerCase()}`)
    .returning({ id: contactMessages.id });
  return rows.length;
}
