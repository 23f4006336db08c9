/** What a customer's data export (src/server/privacy) reads of the newsletter's sign-ups. */
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
