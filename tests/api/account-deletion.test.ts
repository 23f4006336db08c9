// "Delete my account" (the right to erasure): confirmed with the password, the customer's orders stay for
// the tax office, anonymised and detached from the account, the invoice stays exactly as issued and the
// operator can still download it; every login ends, the address can register again, the rest of the
// customer's data is gone and another customer's is untouched. A wrong password deletes nothing and says
// so in the shopper's language, limited like a login. An account without a password confirms with an
// e-mailed link that works only in the login that asked for it. Runs on PGlite, or on PostgreSQL with
// TEST_DATABASE_URL.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessagesFrom } from '../../src/server/contact/personal-data.ts';
import { contactMessages } from '../../src/server/contact/tables.ts';
import { addReview, listReviews } from '../../src/server/catalog/reviews.ts';
import { CustomerRoles } from '../../src/server/customers/operator.ts';
import { invoicePdfResponse } from '../../src/server/invoices/http.ts';
import { newsletterSignUpOf } from '../../src/server/newsletter/personal-data.ts';
import { newsletterSubscribers } from '../../src/server/newsletter/tables.ts';
import { loginsOf } from '../../src/server/auth/personal-data.ts';
import { translate } from '../../src/lib/i18n/index.ts';
import { headersOf, newCustomer, op, placeOrder, register } from './accounts-helpers.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { productId } from './shop-helpers.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(() => t?.close());

const VIEWER = /* GraphQL */ 'query { viewer { databaseId email } }';
const mails = (to: string, subject?: string | RegExp) => t.engine.accounts.mailer().readOutbox({ to, subject });
let ips = 0;
/** A fresh client address per test, so the login limits of one test do not reach another. */
const ip = () => `203.0.113.${++ips}`;

/** A customer with data of every kind: a paid (invoiced) order, wishlist, a review, newsletter, a contact message. */
async function customerWithData(prefix: string) {
  const c = await register(t, newCustomer(prefix));
  const db = t.engine.database.db;
  const antenna = await productId(t, 'omni-antenna');
  const order = await placeOrder(t, { customerId: String(c.userId), productId: antenna, status: 'processing' });
  await t.gql(op('addToWishlist'), { productId: antenna }, headersOf({ authToken: c.authToken }));
  const review = `${prefix}: my gateway reaches twice as far.`;
  await addReview(db, {
    productId: antenna,
    author: c.firstName,
    email: c.email,
    rating: 5,
    content: review,
    date: new Date(),
    verified: true,
    status: 'approved',
  });
  await db.insert(newsletterSubscribers).values({ email: c.email, status: 'confirmed', confirmedAt: new Date() });
  await db.insert(contactMessages).values({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: c.email,
    message: `${prefix} asks about -20 °C.`,
    mailStatus: 'sent',
  });
  return { ...c, order, review };
}

async function reviewByText(content: string) {
  const { rows } = await listReviews(t.engine.database.db, { limit: 1000, offset: 0 });
  return rows.find((r) => r.content === content) ?? null;
}

describe('deleting an account with its password', () => {
  it("erases the customer: orders anonymised and detached, the invoice as issued, logins ended, the address free, others' data untouched", async () => {
    const ada = await customerWithData('ada');
    const bob = await customerWithData('bob');
    const db = t.engine.database.db;
    const invoice = await t.engine.invoices.invoiceOf(ada.order.id);
    expect(invoice).not.toBeNull();

    const r = await t.gql(
      op('deleteAccount'),
      { password: ada.password },
      { ...headersOf({ authToken: ada.authToken }, ip()), 'accept-language': 'de-DE' },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.deleteAccount.deleted).toBe(true);

    // The account is gone; its login ended (auth token refused, refresh token dead).
    expect(await t.engine.accounts.customers.get(ada.userId)).toBeNull();
    const viewer = await t.gql(VIEWER, {}, headersOf({ authToken: ada.authToken }));
    expect(viewer.body.data?.viewer ?? null).toBeNull();
    const refreshed = await t.gql(op('refreshToken'), { refreshToken: ada.refreshToken });
    expect(refreshed.body.data.refreshToken.success).toBe(false);
    expect(await loginsOf(db, ada.userId)).toEqual({ linkedProviders: [], logins: [] });
    expect(await t.engine.sessions.load(String(ada.userId))).toEqual({});

    // The order stays, without the person and without the account.
    const order = (await t.engine.orders.get(ada.order.id))!;
    expect(order.customerId).toBe('0');
    expect(order.billing).toMatchObject({
      firstName: '[deleted]',
      lastName: '[deleted]',
      address1: '[deleted]',
      city: '[deleted]',
      postcode: '[deleted]',
      email: 'deleted@site.invalid',
      phone: '',
      country: 'FR',
    });
    expect(order.shipping).toMatchObject({ firstName: '[deleted]', address1: '[deleted]', country: 'FR' });
    expect(order.customerNote).toBe('');
    expect(order.metaData).toContainEqual({ key: '_anonymized', value: 'yes' });
    expect(order.totalCents).toBe(ada.order.totalCents);
    expect(await t.engine.orders.listByCustomer(String(ada.userId))).toEqual([]);
    expect(JSON.stringify(order)).not.toContain('Lovelace');

    // The invoice is exactly as issued, and the operator's download still works.
    const after = (await t.engine.invoices.get(invoice!.id))!;
    expect(after.number).toBe(invoice!.number);
    expect(after.document).toEqual(invoice!.document);
    expect(JSON.stringify(after.document)).toContain('Lovelace');
    const pdf = await invoicePdfResponse(t.engine.invoices, after);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // Everything else: wishlist, newsletter, contact messages gone; the review kept without its writer.
    expect(await t.engine.accounts.wishlist.productIds(ada.userId)).toEqual([]);
    expect(await newsletterSignUpOf(db, ada.email)).toBeNull();
    expect(await contactMessagesFrom(db, ada.email)).toEqual([]);
    expect(await reviewByText(ada.review)).toMatchObject({ author: 'Anonymous', email: '', rating: 5 });

    // The confirmation went out, in the language of the page the customer deleted from.
    const [confirmation, ...more] = await mails(ada.email, /gelöscht/);
    expect(more).toEqual([]);
    expect(confirmation!.subject).toBe('Dein Meshfront-Konto wurde gelöscht');
    expect(confirmation!.text).toContain('Rechnungen');

    // The address is free to register again, as a new account.
    const again = await register(t, { ...newCustomer('ada-again'), email: ada.email });
    expect(again.userId).not.toBe(ada.userId);
    expect(await t.engine.orders.listByCustomer(String(again.userId))).toEqual([]);

    // Bob's data is untouched.
    const bobsOrder = (await t.engine.orders.get(bob.order.id))!;
    expect(bobsOrder.customerId).toBe(String(bob.userId));
    expect(bobsOrder.billing).toEqual(bob.order.billing);
    expect((await t.gql(VIEWER, {}, headersOf({ authToken: bob.authToken }))).body.data.viewer.email).toBe(bob.email);
    expect(await t.engine.accounts.wishlist.productIds(bob.userId)).toHaveLength(1);
    expect(await newsletterSignUpOf(db, bob.email)).toMatchObject({ status: 'confirmed' });
    expect(await contactMessagesFrom(db, bob.email)).toHaveLength(1);
    expect(await reviewByText(bob.review)).toMatchObject({ author: bob.firstName, email: bob.email });
  });

  it("a wrong or missing password deletes nothing, says so in the shopper's language, and is limited like a login", async () => {
    const ada = await customerWithData('wrong');
    const address = ip();
    const h = { ...headersOf({ authToken: ada.authToken }, address), 'accept-language': 'fr-FR' };

    const missing = await t.gql(op('deleteAccount'), {}, h);
    expect(missing.body.errors?.[0]?.message).toBe(translate('fr_FR', 'engine.account.erase.passwordMissing'));
    const wrong = await t.gql(op('deleteAccount'), { password: 'not-my-password' }, h);
    expect(wrong.body.errors?.[0]?.message).toBe(translate('fr_FR', 'engine.account.erase.passwordWrong'));
    expect(wrong.body.errors?.[0]?.message).toContain('mot de passe');
    expect(wrong.body.data?.deleteAccount ?? null).toBeNull();

    // Nothing was deleted.
    expect((await t.gql(VIEWER, {}, headersOf({ authToken: ada.authToken }))).body.data.viewer.email).toBe(ada.email);
    expect((await t.engine.orders.get(ada.order.id))!.billing).toEqual(ada.order.billing);
    expect(await t.engine.accounts.wishlist.productIds(ada.userId)).toHaveLength(1);
    expect(await reviewByText(ada.review)).toMatchObject({ author: ada.firstName });
    expect(await mails(ada.email, /deleted|supprimé/)).toEqual([]);

    // Guessing runs into the login's limit (then even the right password waits).
    let code: unknown = null;
    for (let i = 0; i < 12 && code !== 'RATE_LIMITED'; i++)
      code = (await t.gql(op('deleteAccount'), { password: `guess-${i}` }, h)).body.errors?.[0]?.extensions?.code;
    expect(code).toBe('RATE_LIMITED');
    const limited = await t.gql(op('deleteAccount'), { password: ada.password }, h);
    expect(limited.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(await t.engine.accounts.customers.get(ada.userId)).not.toBeNull();
  });

  it("needs a login, and a shop manager's account is not deleted here", async () => {
    const anonymous = await t.gql(op('deleteAccount'), { password: 'whatever' });
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    const manager = await register(t, newCustomer('manager'));
    await new CustomerRoles(t.engine.database.db).setRole(manager.userId, 'shop_manager');
    const r = await t.gql(
      op('deleteAccount'),
      { password: manager.password },
      headersOf({ authToken: manager.authToken }, ip()),
    );
    expect(r.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await t.engine.accounts.customers.get(manager.userId)).not.toBeNull();
  });
});

/** A guest's order (session id t_…) placed with `email` as billing address. */
async function guestOrder(email: string) {
  const antenna = await productId(t, 'omni-antenna');
  const order = await placeOrder(t, { customerId: `t_${Date.now().toString(16)}${ips}`, productId: antenna });
  const billing = { ...order.billing, email };
  await t.engine.database.db.execute(
    sql`update orders set billing = ${JSON.stringify(billing)}::jsonb where id = ${order.id}`,
  );
  return (await t.engine.orders.get(order.id))!;
}

describe('guest orders placed with the address', () => {
  it('are anonymised with the account only when the address was proven the customer’s', async () => {
    const proven = await register(t, newCustomer('proven'));
    await t.engine.accounts.customers.markEmailVerified(proven.userId, proven.email);
    const unproven = await register(t, newCustomer('unproven'));
    const provenGuestOrder = await guestOrder(proven.email);
    const unprovenGuestOrder = await guestOrder(unproven.email);

    for (const c of [proven, unproven]) {
      const r = await t.gql(op('deleteAccount'), { password: c.password }, headersOf({ authToken: c.authToken }, ip()));
      expect(r.body.errors).toBeUndefined();
    }
    expect((await t.engine.orders.get(provenGuestOrder.id))!).toMatchObject({
      customerId: '0',
      billing: expect.objectContaining({ email: 'deleted@site.invalid', lastName: '[deleted]' }),
    });
    // Anyone can register with an address that is not theirs: such an account erases no stranger's order.
    expect((await t.engine.orders.get(unprovenGuestOrder.id))!).toMatchObject({
      customerId: unprovenGuestOrder.customerId,
      billing: unprovenGuestOrder.billing,
    });
  });
});

describe('erasing one account twice at once', () => {
  it('erases it once: the other erasure finds nothing left, and one confirmation goes out', async () => {
    const c = await customerWithData('twice');
    const { eraser } = t.engine.accounts;
    const results = await Promise.all([eraser.erase({ id: c.userId }), eraser.erase({ id: c.userId })]);
    expect(results.filter((r) => r !== null)).toEqual([
      expect.objectContaining({ customerId: c.userId, ordersAnonymised: 1 }),
    ]);
    expect(await mails(c.email, /account was deleted/)).toHaveLength(1);
    expect(await t.engine.accounts.customers.get(c.userId)).toBeNull();
  });
});

describe('deleting an account without a password', () => {
  it('confirms with the e-mailed link, which works only in the login that asked for it', async () => {
    const c = await customerWithData('oauth');
    const { customers, auth } = t.engine.accounts;
    // A provider-only account: no password (its earlier logins end with it).
    await customers.clearPassword(c.userId);
    const user = (await customers.get(c.userId))!;
    const mine = await auth.issueTokens(user);
    const other = await auth.issueTokens(user);
    const h = headersOf({ authToken: mine.authToken }, ip());

    const withPassword = await t.gql(op('deleteAccount'), { password: 'anything' }, h);
    expect(withPassword.body.errors?.[0]?.message).toBe(translate('en_US', 'engine.account.erase.noPassword'));

    const sent = await t.gql(op('sendAccountDeletionLink'), {}, h);
    expect(sent.body.errors).toBeUndefined();
    expect(sent.body.data.sendAccountDeletionLink.success).toBe(true);
    const [mail] = await mails(c.email, /Confirm the deletion/);
    const url = new URL(/https?:\/\/\S+delete-account=\S+/.exec(mail!.text)![0]);
    expect(url.pathname).toBe('/my-account');
    const key = url.searchParams.get('delete-account')!;

    // Another login of the same account, and a forged key, get nothing.
    const elsewhere = await t.gql(
      op('deleteAccount'),
      { confirmationKey: key },
      headersOf({ authToken: other.authToken }, ip()),
    );
    expect(elsewhere.body.errors?.[0]?.message).toBe(translate('en_US', 'engine.account.erase.linkInvalid'));
    const forged = await t.gql(op('deleteAccount'), { confirmationKey: `${key.split('.')[0]}.AAAA` }, h);
    expect(forged.body.errors?.[0]?.message).toBe(translate('en_US', 'engine.account.erase.linkInvalid'));
    expect(await customers.get(c.userId)).not.toBeNull();

    const r = await t.gql(op('deleteAccount'), { confirmationKey: key }, h);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.deleteAccount.deleted).toBe(true);
    expect(await customers.get(c.userId)).toBeNull();
    expect((await t.engine.orders.get(c.order.id))!.customerId).toBe('0');
    // Spent with the account it deleted.
    const replay = await t.gql(op('deleteAccount'), { confirmationKey: key }, h);
    expect(replay.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
