/** What a customer's data export and erasure (src/server/privacy) read and delete of the account's logins. */
import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connection.ts';
import { authSessions, customerIdentities, emailVerificationKeys, passwordResetKeys } from './tables.ts';

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

/**
 * Erasing the account (src/server/privacy/erase.ts): every login (so every refresh token and, with the
 * login gone, every auth token stops working), password-reset and e-mail verification key and linked
 * provider login of `userId`. The e-mail change's "this wasn't me" links hold no row: they name the
 * account, which is gone with it.
 */
export async function eraseLoginsOf(tx: DbOrTx, userId: number): Promise<void> {
  await tx.delete(authSessions).where(eq(authSessions.userId, userId));
  await tx.delete(passwordResetKeys).where(eq(passwordResetKeys.userId, userId));
  await tx.delete(emailVerificationKeys).where(eq(emailVerificationKeys.userId, userId));
  await tx.delete(customerIdentities).where(eq(customerIdentities.userId, userId));
}
