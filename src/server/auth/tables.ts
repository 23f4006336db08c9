/**
 * The auth domain's tables: login sessions with their rotating refresh token (stored as a SHA-256 hash),
 * single-use password-reset and e-mail verification keys (hashed), consumed OAuth states and account
 * links (single use) and linked provider identities.
 */
import { index, pgTable, primaryKey, text, timestamp, integer } from 'drizzle-orm/pg-core';
import { customers } from '../customers/tables.ts';

/** One row per login (device): the current refresh token's hash; revoked on logout. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    refreshHash: text('refresh_hash').notNull().unique(),
    /** The hash the last rotation replaced: presenting it again means the token was stolen → revoke. */
    previousHash: text('previous_hash'),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('auth_sessions_user').on(t.userId), index('auth_sessions_previous_hash').on(t.previousHash)],
);

export const passwordResetKeys = pgTable(
  'password_reset_keys',
  {
    keyHash: text('key_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('password_reset_keys_user').on(t.userId)],
);

/**
 * Signed one-time tokens of the login-provider flow already used: OAuth states, pending account links
 * and e-mailed account-link keys (each token is signed and carries its session and expiry; a row lives
 * until the token expires, so a replay within its lifetime finds it).
 */
export const oauthStateUses = pgTable('oauth_state_uses', {
  stateHash: text('state_hash').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Single-use keys that confirm a customer's e-mail address (SHA-256 of the key mailed; only the newest
 * per customer exists). `email` is the address the key was sent to: the key proves nothing once the
 * account's address changed. A used key is deleted.
 */
export const emailVerificationKeys = pgTable(
  'email_verification_keys',
  {
    keyHash: text('key_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('email_verification_keys_user').on(t.userId)],
);

/** A login provider's account (issuer subject) linked to a customer. */
export const customerIdentities = pgTable(
  'customer_identities',
  {
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    email: text('email').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index('customer_identities_user').on(t.userId)],
);
