/** What a customer's data export and erasure (src/server/privacy) read and delete of the newsletter's sign-ups. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connection.ts';
import { newsletterSubscribers } from './tables.ts';

/** The sign-up of `email` and its proof of consent (never its tokens), or null. */
export async function newsletterSignUpOf(db: DbOrTx, email: string) {
  const [row] = await db
    .select({
      status: newsletterSubscribers.status,
      language: newsletterSubscribers.locale,
      signedUpAt: newsletterSubscribers.createdAt,
      signedUpFrom: newsletterSubscribers.subscribedIp,
      confirmedAt: newsletterSubscribers.confirmedAt,
      confirmedFrom: newsletterSubscribers.confirmedIp,
      unsubscribedAt: newsletterSubscribers.unsubscribedAt,
    })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.email, email.trim().toLowerCase()));
  return row ?? null;
}

/**
 * Erasing a customer (src/server/privacy/erase.ts): the sign-up of `email` is deleted with its proof of
 * consent (no newsletter goes to the address any more, so there is no consent left to prove).
 */
export async function eraseNewsletterSignUpOf(tx: DbOrTx, email: string): Promise<boolean> {
  const rows = await tx
    .delete(newsletterSubscribers)
    .where(eq(newsletterSubscribers.email, email.trim().toLowerCase()))
    .returning({ id: newsletterSubscribers.id });
  return rows.length > 0;
}
