// "Download my data": the logged-in customer's export holds every kind of data the shop keeps about them —
// account, addresses, logins, orders with their lines, reviews, wishlist, newsletter sign-up, contact
// messages — and nothing of another customer's, and no secret (password or token hashes). Needs a login.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReview } from '../../src/server/catalog/reviews.ts';
import { contactMessages } from '../../src/server/contact/tables.ts';
import { newsletterSubscribers } from '../../src/server/newsletter/tables.ts';
import { headersOf, newCustomer, op, placeOrder, register } from './accounts-helpers.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { productId } from './shop-helpers.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(() => t?.close());

const EXPORT = /* GraphQL */ 'query { personalDataExport }';

describe('personal data export', () => {
  it("holds every kind of the customer's data and nothing of another customer's", async () => {
    const ada = await register(t, newCustomer('ada'));
    const bob = await register(t, newCustomer('bob'));
    const antenna = await productId(t, 'omni-antenna');
    const db = t.engine.database.db;

    const order = await placeOrder(t, { customerId: String(ada.userId), productId: antenna, status: 'processing' });
    const bobsOrder = await placeOrder(t, { customerId: String(bob.userId), productId: antenna });
    await t.gql(op('addToWishlist'), { productId: antenna }, headersOf({ authToken: ada.authToken }));
    for (const [c, text] of [
      [ada, 'Great antenna, my gateway reaches twice as far.'],
      [bob, 'Bob likes it too.'],
    ] as const)
      await addReview(db, {
        productId: antenna,
        author: c.firstName,
        email: c.email,
        rating: 5,
        content: text,
        date: new Date(),
        verified: true,
        status: 'approved',
      });
    await db.insert(newsletterSubscribers).values({ email: ada.email, status: 'confirmed', confirmedAt: new Date() });
    await db.insert(contactMessages).values([
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: ada.email,
        message: 'Does the gateway work at -20 °C?',
        mailStatus: 'sent',
      },
      { firstName: 'Bob', lastName: 'B', email: bob.email, message: 'Bob asks something else.', mailStatus: 'sent' },
    ]);

    const r = await t.gql(EXPORT, {}, headersOf({ authToken: ada.authToken }));
    expect(r.body.errors).toBeUndefined();
    const text = r.body.data.personalDataExport as string;
    const data = JSON.parse(text);
    expect(data.account).toMatchObject({ id: ada.userId, email: ada.email, username: ada.username, hasPassword: true });
    expect(data.addresses).toHaveProperty('billing');
    expect(data.logins.length).toBeGreaterThanOrEqual(1);
    expect(data.orders.map((o: { number: string }) => o.number)).toEqual([String(order.id)]);
    expect(data.orders[0].lines[0]).toMatchObject({ quantity: 1, total: '10.00' });
    expect(data.reviews.map((x: { text: string }) => x.text)).toEqual([
      'Great antenna, my gateway reaches twice as far.',
    ]);
    expect(data.wishlist).toHaveLength(1);
    expect(data.newsletter).toMatchObject({ status: 'confirmed' });
    expect(data.contactMessages.map((m: { message: string }) => m.message)).toEqual([
      'Does the gateway work at -20 °C?',
    ]);

    // Nothing of Bob's, and no secret of Ada's.
    for (const other of [bob.email, 'Bob likes it too.', 'Bob asks something else.', `"number": "${bobsOrder.id}"`])
      expect(text).not.toContain(other);
    expect(text).not.toMatch(/passwordHash|refreshHash|keyHash|tokenHash|scrypt/i);
  });

  it('needs a login', async () => {
    const r = await t.gql(EXPORT, {});
    expect(r.body.data?.personalDataExport ?? null).toBeNull();
    expect(r.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
