/** What a customer's data export (src/server/privacy) reads of the account's logins. */
import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connection.ts';
import { authSessions, customerIdentities } from './tables.ts';

/** The login providers linked to the account and its logins (devices), never a token or its hash. */
export async function loginsOf(db: DbOrTx, userId: number) {
  const linkedProviders = await db
    .select({
      provider: customerIdentities.provider,
      email: customerIdentities.email,
      linkedAt: customerIdentities.createdAt,
    })
    .from(customerIdentities)
    .where(eq(customerIdentities.userId, userId));
  const logins = await db
    .select({
      loggedInAt: authSessions.createdAt,
      lastUsedAt: authSessions.lastUsedAt,
      expiresAt: authSessions.refreshExpiresAt,
      loggedOutAt: authSessions.revokedAt,
    })
    .from(authSessions)
    .where(eq(authSessions.userId, userId))
    .orderBy(desc(authSessions.createdAt));
  return { linkedProviders, logins };
}
