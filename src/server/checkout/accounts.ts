/**
 * "Create an account" at checkout: a guest's `account { username,
 * password }` becomes a real customer account of the accounts domain, and the order belongs to it.
 *
 * The work is split so that nothing is left half-way: `prepare` runs before the order's transaction
 * (rate limit, password rules, a first availability check, the slow password hash), `create` inserts the
 * account INSIDE the order's transaction (so a refused order leaves no account and a refused account
 * leaves no order; the unique indexes decide a race for the same name or address), and `saveAddresses`
 * copies the checkout's addresses onto the account once the order committed (a logged-in customer's
 * too); `sendVerification` then
 * mails the link that confirms the account's address, as a registration on the account page does.
 */
import type { AccountServices } from '../context.ts';
import { hashPassword, passwordProblem } from '../auth/passwords.ts';
import { AccountError, DUPLICATE_EMAIL, DUPLICATE_USERNAME } from '../customers/service.ts';
import { CheckoutError, type CheckoutAccountHook } from './service.ts';
import { isEmail } from '../cart/address-validation.ts';

/** A refusal of the account part of a checkout; the checkout reports it like its own errors. */
export class CheckoutAccountError extends CheckoutError {
  override name = 'CheckoutAccountError';
}

export const PASSWORD_MISSING = 'Please enter an account password.';

/** Runs an accounts-domain call, turning its refusals into checkout errors with the same message. */
async function asCheckoutError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AccountError) throw new CheckoutAccountError(err.message);
    throw err;
  }
}

export function checkoutAccountHook(
  accounts: Pick<AccountServices, 'auth' | 'customers' | 'settings'>,
): CheckoutAccountHook {
  return {
    prepare: (request, clientIp) =>
      asCheckoutError(async () => {
        // The username is optional, as on registration: an empty one is made from the e-mail address
        // when the account is created (customers.create).
        const username = request.username.trim();
        const email = request.email.trim().toLowerCase();
        if (!request.password) throw new CheckoutAccountError(PASSWORD_MISSING);
        // Registrations from one address are limited the same way whether they come from the
        // account page or from a checkout.
        await accounts.auth.limit('register:ip', clientIp, accounts.settings.limits.registerPerIp, 3600);
        const problem = passwordProblem(request.password, { username, email });
        if (problem) throw new CheckoutAccountError(problem);
        // Early, friendly answers; the insert in the order's transaction checks again.
        const byName = username ? await accounts.customers.findByLogin(username) : null;
        if (byName && byName.username.toLowerCase() === username.toLowerCase())
          throw new CheckoutAccountError(DUPLICATE_USERNAME);
        if (isEmail(email) && (await accounts.customers.findByEmail(email)))
          throw new CheckoutAccountError(DUPLICATE_EMAIL);
        return {
          username,
          email,
          firstName: request.firstName,
          lastName: request.lastName,
          passwordHash: await hashPassword(request.password, accounts.settings.scryptLog2N),
        };
      }),
    create: (tx, account) =>
      asCheckoutError(async () => {
        const row = await accounts.customers.create(account, tx);
        return { userId: row.id };
      }),
    async saveAddresses(userId, billing, shipping) {
      // Fields left out keep what the account has (updateProfile replaces only the given ones).
      await accounts.customers.updateProfile(userId, {
        billing: { ...billing },
        shipping: shipping ? { ...shipping, email: undefined, phone: undefined } : undefined,
      });
    },
    async sendVerification(userId) {
      const user = await accounts.customers.get(userId);
      if (user) await accounts.auth.sendEmailVerification(user);
    },
  };
}
