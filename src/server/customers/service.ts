/**
 * The customers service: registered customers' profiles (names, e-mail, username, addresses) and their
 * password hash and token version. Only this service touches the `customers` table; the auth service
 * calls it for logins, the account resolvers for profile edits.
 */
import { and, eq, sql } from 'drizzle-orm';
import { emptyAddress, type Address } from '../cart/model.ts';
import { addressProblems, isEmail, toAddress, type AddressInput } from '../cart/address-validation.ts';
import { englishText } from '../i18n/text.ts';
import { DEFAULT_LOCALE, type LocaleCode } from '../../lib/i18n/locales.ts';
import type { Database, DbOrTx } from '../db/connection.ts';
import { customers } from './tables.ts';

export type CustomerRow = typeof customers.$inferSelect;

/** A refusal with a message for the customer. */
export class AccountError extends Error {
  override name = 'AccountError';
  constructor(
    message: string,
    readonly code: string = 'BAD_USER_INPUT',
  ) {
    super(message);
  }
}

export const DUPLICATE_EMAIL = 'An account is already registered with your email address. Please log in.';
export const DUPLICATE_USERNAME = 'An account is already registered with that username. Please choose another.';
export const INVALID_EMAIL = 'Please provide a valid email address.';
export const EMAIL_TAKEN_SINCE =
  'Your previous e-mail address now belongs to another account, so it cannot be restored here. Please contact us.';

const USERNAME = /^[\p{L}\p{N} _.@-]{1,60}$/u;

export function nicenameOf(username: string): string {
  return (
    username
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 50) || 'customer'
  );
}

function isUniqueViolation(err: unknown, index: string): boolean {
  const e = err as {
    code?: string;
    constraint?: string;
    message?: string;
    cause?: { code?: string; constraint?: string; message?: string };
  };
  const code = e?.code ?? e?.cause?.code;
  const text = `${e?.constraint ?? ''} ${e?.cause?.constraint ?? ''} ${e?.message ?? ''} ${e?.cause?.message ?? ''}`;
  return code === '23505' && text.includes(index);
}

export type NewCustomer = {
  username?: string | null;
  email: string;
  passwordHash: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** The address is already proven (a login provider's verified e-mail): no verification mail needed. */
  emailVerified?: boolean;
  /** The language the account was made in (its mails are written in it); default English. */
  locale?: LocaleCode;
};

export type ProfileUpdate = {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  displayName?: string | null;
  billing?: AddressInput;
  shipping?: AddressInput;
  shippingSameAsBilling?: boolean | null;
};

const clean = (v: string | null | undefined, max = 100) =>
  (v ?? '')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, max);

/** An e-mail address as the account stores it: control characters dropped, trimmed, lower case. */
export const storedEmail = (v: string | null | undefined) => clean(v, 254).toLowerCase();

export class CustomerService {
  constructor(
    private readonly db: Database,
    private readonly allowedCountries: string[],
  ) {}

  /**
   * Records the customer's Stripe customer unless one is recorded already, and answers the one that
   * stays: when two requests made one at the same time, the first recorded wins and both use it.
   */
  async recordStripeCustomer(id: number, stripeCustomerId: string): Promise<string | null> {
    await this.db
      .update(customers)
      .set({ stripeCustomerId })
      .where(and(eq(customers.id, id), sql`${customers.stripeCustomerId} is null`));
    return (await this.get(id))?.stripeCustomerId ?? null;
  }

  async get(id: number, db: DbOrTx = this.db): Promise<CustomerRow | null> {
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2147483647) return null;
    const [row] = await db.select().from(customers).where(eq(customers.id, id));
    return row ?? null;
  }

  /** By username or e-mail address, case-insensitively. */
  async findByLogin(login: string): Promise<CustomerRow | null> {
    const value = login.trim().toLowerCase();
    if (!value) return null;
    const column = value.includes('@') ? sql`lower(${customers.email})` : sql`lower(${customers.username})`;
    const [row] = await this.db.select().from(customers).where(sql`${column} = ${value}`);
    if (row || !value.includes('@')) return row ?? null;
    // A username may contain "@" too.
    const [byName] = await this.db.select().from(customers).where(sql`lower(${customers.username}) = ${value}`);
    return byName ?? null;
  }

  /**
   * The account, its row locked until `tx` ends: an erasure (privacy/erase.ts) holds it, so a second
   * erasure of the same account waits and then finds nothing left to erase.
   */
  async lockForChange(id: number, tx: DbOrTx): Promise<CustomerRow | null> {
    const [row] = await tx.select().from(customers).where(eq(customers.id, id)).for('update');
    return row ?? null;
  }

  async findByEmail(email: string, db: DbOrTx = this.db): Promise<CustomerRow | null> {
    const [row] = await db
      .select()
      .from(customers)
      .where(sql`lower(${customers.email}) = ${email.trim().toLowerCase()}`);
    return row ?? null;
  }

  private async usernameTaken(username: string, db: DbOrTx = this.db): Promise<boolean> {
    const [row] = await db
      .select({ id: customers.id })
      .from(customers)
      .where(sql`lower(${customers.username}) = ${username.toLowerCase()}`);
    return !!row;
  }

  /** A free username from an e-mail's local part (WooCommerce's behaviour when none is given). */
  private async generateUsername(email: string, db: DbOrTx = this.db): Promise<string> {
    const base =
      email
        .split('@')[0]!
        .replace(/[^\p{L}\p{N}_.-]+/gu, '')
        .slice(0, 50) || 'customer';
    if (!(await this.usernameTaken(base, db))) return base;
    for (let i = 2; i < 50; i++) if (!(await this.usernameTaken(`${base}${i}`, db))) return `${base}${i}`;
    return `${base}-${Date.now().toString(36)}`;
  }

  /** `db` may be a transaction (checkout creates the account in the order's transaction). */
  async create(input: NewCustomer, db: DbOrTx = this.db): Promise<CustomerRow> {
    const email = clean(input.email, 254).toLowerCase();
    if (!email || !isEmail(email)) throw new AccountError(INVALID_EMAIL);
    let username = clean(input.username, 60);
    if (username) {
      if (!USERNAME.test(username))
        throw new AccountError(
          'Please enter a valid account username (letters, digits, spaces and . _ - @, at most 60 characters).',
        );
      if (await this.usernameTaken(username, db)) throw new AccountError(DUPLICATE_USERNAME);
    }
    if (await this.findByEmail(email, db)) throw new AccountError(DUPLICATE_EMAIL);
    if (!username) username = await this.generateUsername(email, db);
    const firstName = clean(input.firstName);
    const lastName = clean(input.lastName);
    const billing = { ...emptyAddress(), firstName, lastName, email };
    try {
      const [row] = await db
        .insert(customers)
        .values({
          username,
          email,
          nicename: nicenameOf(username),
          firstName,
          lastName,
          displayName: [firstName, lastName].filter(Boolean).join(' ') || username,
          passwordHash: input.passwordHash,
          emailVerifiedAt: input.emailVerified ? new Date() : null,
          locale: input.locale ?? DEFAULT_LOCALE.code,
          billing,
          shipping: emptyAddress(),
        })
        .returning();
      return row!;
    } catch (err) {
      // Two registrations racing for the same name or address: the unique index decides.
      if (isUniqueViolation(err, 'customers_email_lower')) throw new AccountError(DUPLICATE_EMAIL);
      if (isUniqueViolation(err, 'customers_username_lower')) throw new AccountError(DUPLICATE_USERNAME);
      throw err;
    }
  }

  /**
   * Remembers the language the customer uses the shop in now (a login, a registration, an account
   * update from a page in that language), for the account's mails. Writes only when it changed.
   */
  async setLocale(user: Pick<CustomerRow, 'id' | 'locale'>, locale: LocaleCode, db: DbOrTx = this.db): Promise<void> {
    if (user.locale === locale) return;
    await db.update(customers).set({ locale }).where(eq(customers.id, user.id));
  }

  /** Names, e-mail (unique) and addresses (validated); returns the updated row. `db`: a caller's transaction. */
  async updateProfile(id: number, input: ProfileUpdate, db: DbOrTx = this.db): Promise<CustomerRow> {
    const current = await this.get(id, db);
    if (!current) throw new AccountError('Failed to update customer.');
    const set: Partial<typeof customers.$inferInsert> = { updatedAt: new Date() };
    if (input.email !== undefined && input.email !== null) {
      const email = storedEmail(input.email);
      if (!isEmail(email)) throw new AccountError(INVALID_EMAIL);
      if (email !== current.email.toLowerCase()) {
        const other = await this.findByEmail(email, db);
        if (other && other.id !== id) throw new AccountError('This email address is already registered.');
        set.email = email;
        // Whatever proved the old address says nothing about the new one.
        set.emailVerifiedAt = null;
      }
    }
    if (input.firstName !== undefined && input.firstName !== null) set.firstName = clean(input.firstName);
    if (input.lastName !== undefined && input.lastName !== null) set.lastName = clean(input.lastName);
    if (input.displayName !== undefined && input.displayName !== null)
      set.displayName = clean(input.displayName) || current.username;
    const problems: string[] = [];
    const merge = (stored: Address, given: AddressInput): Address => {
      if (!given) return stored;
      const overwrite = (given as { overwrite?: boolean | null }).overwrite === true;
      const parsed = toAddress(given);
      const out: Address = overwrite ? parsed : { ...stored };
      if (!overwrite)
        for (const k of Object.keys(parsed) as (keyof Address)[])
          if (given[k] !== undefined && given[k] !== null) out[k] = parsed[k] ?? '';
      return out;
    };
    let billing: Address | null = null;
    if (input.billing) {
      billing = merge(current.billing, input.billing);
      problems.push(...addressProblems('Billing', billing, [], this.allowedCountries).map(englishText));
      set.billing = billing;
    }
    if (input.shippingSameAsBilling && (billing ?? current.billing)) {
      set.shipping = { ...(billing ?? current.billing), email: '', phone: '' };
    } else if (input.shipping) {
      const shipping = merge(current.shipping, input.shipping);
      problems.push(...addressProblems('Shipping', shipping, [], this.allowedCountries).map(englishText));
      set.shipping = shipping;
    }
    if (problems.length) throw new AccountError(problems.join(' '));
    try {
      const [row] = await db.update(customers).set(set).where(eq(customers.id, id)).returning();
      return row!;
    } catch (err) {
      if (isUniqueViolation(err, 'customers_email_lower'))
        throw new AccountError('This email address is already registered.');
      throw err;
    }
  }

  /** New password hash; `revokeTokens` bumps the token version so every auth token issued before dies. */
  async setPasswordHash(
    id: number,
    passwordHash: string,
    options: { revokeTokens: boolean },
    db: DbOrTx = this.db,
  ): Promise<void> {
    await db
      .update(customers)
      .set({
        passwordHash,
        updatedAt: new Date(),
        ...(options.revokeTokens ? { tokenVersion: sql`${customers.tokenVersion} + 1` } : {}),
      })
      .where(eq(customers.id, id));
  }

  /**
   * Records that `email` is the account holder's, only while it still is the account's address (an
   * address changed in the meantime stays unverified). True when the account has that address.
   */
  async markEmailVerified(id: number, email: string, db: DbOrTx = this.db): Promise<boolean> {
    const rows = await db
      .update(customers)
      .set({ emailVerifiedAt: sql`coalesce(${customers.emailVerifiedAt}, now())` })
      .where(and(eq(customers.id, id), sql`lower(${customers.email}) = ${email.trim().toLowerCase()}`))
      .returning({ id: customers.id });
    return rows.length > 0;
  }

  /** No password any more (its holder may set one with a password reset); every auth token issued before dies. */
  async clearPassword(id: number, db: DbOrTx = this.db): Promise<void> {
    await db
      .update(customers)
      .set({ passwordHash: null, updatedAt: new Date(), tokenVersion: sql`${customers.tokenVersion} + 1` })
      .where(eq(customers.id, id));
  }

  /**
   * Puts back the address an account had before a change its owner reported ("this wasn't me"), only
   * while the account still has the address it was changed to (`from`); null when it has not. The
   * report link was mailed to `to`, so opening it proves that address. Throws when another account has
   * taken `to` meanwhile.
   */
  async restoreEmail(id: number, from: string, to: string, db: DbOrTx = this.db): Promise<CustomerRow | null> {
    try {
      const [row] = await db
        .update(customers)
        .set({ email: storedEmail(to), emailVerifiedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(customers.id, id), sql`lower(${customers.email}) = ${storedEmail(from)}`))
        .returning();
      return row ?? null;
    } catch (err) {
      if (isUniqueViolation(err, 'customers_email_lower')) throw new AccountError(EMAIL_TAKEN_SINCE);
      throw err;
    }
  }

  async bumpTokenVersion(id: number, db: DbOrTx = this.db): Promise<void> {
    await db
      .update(customers)
      .set({ tokenVersion: sql`${customers.tokenVersion} + 1` })
      .where(eq(customers.id, id));
  }

  /**
   * Deletes the account (its e-mail address and username are free again). Erasing a customer
   * (privacy/erase.ts) deletes the other domains' rows first, each through its owner; the foreign keys
   * would take logins, reset keys, identities and wishlist along anyway.
   */
  async delete(id: number, db: DbOrTx = this.db): Promise<boolean> {
    const rows = await db.delete(customers).where(eq(customers.id, id)).returning({ id: customers.id });
    return rows.length > 0;
  }
}
