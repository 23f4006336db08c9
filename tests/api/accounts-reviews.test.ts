// writeReview: published at once or held for approval, rating bounds, verified owners, escaping, and the
// product's averageRating / reviewCount following.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEngine, type TestEngine } from './harness.ts';
import { headersOf, newCustomer, op, placeOrder, register } from './accounts-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestEngine;
let ipCounter = 0;
const ip = () => `192.0.2.${++ipCounter}`;
let productId: number;

const PRODUCT = /* GraphQL */ `query ($id: ID!) { product(id: $id, idType: DATABASE_ID) { averageRating reviewCount reviews(first: 100) { averageRating edges { rating node { databaseId content author { node { name } } } } } } }`;

beforeAll(async () => {
  process.env.TRUST_PROXY = '1';
  process.env.PASSWORD_SCRYPT_LOG2N = '12';
  process.env.REVIEWS_PER_IP_PER_HOUR = '3';
  t = await startTestEngine();
  const snap = await t.engine.catalog.snapshot();
  productId = [...snap.productsById.values()].find((p) => p.slug === 'omni-antenna')!.id;
});
afterAll(async () => {
  await t?.close();
});

const review = (vars: Record<string, unknown>, headers: Record<string, string>) =>
  t.gql(
    op('WriteReview'),
    {
      commentOn: productId,
      rating: 5,
      content: 'Great antenna.',
      author: 'Ada',
      authorEmail: 'ada@example.test',
      ...vars,
    },
    headers,
  );

describe('writeReview', () => {
  it('publishes a review at once: the product’s count and average follow, the content is escaped', async () => {
    const before = (await t.gql(PRODUCT, { id: String(productId) })).body.data.product;
    const r = await review(
      { rating: 1, content: '<script>alert("x")</script>\nSecond line & more', author: 'Eve <b>' },
      headersOf({}, ip()),
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.writeReview.rating).toBe(1);
    expect(r.body.data.writeReview.review.content).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(r.body.data.writeReview.review.content).not.toContain('<script>');
    expect(r.body.data.writeReview.review.author.node.name).toBe('Eve <b>');
    const after = (await t.gql(PRODUCT, { id: String(productId) })).body.data.product;
    expect(after.reviewCount).toBe(before.reviewCount + 1);
    const ratings = after.reviews.edges.map((e: { rating: number }) => e.rating);
    expect(after.averageRating).toBeCloseTo(ratings.reduce((s: number, x: number) => s + x, 0) / ratings.length, 2);
    const mine = after.reviews.edges.find(
      (e: { node: { databaseId: number } }) => e.node.databaseId === r.body.data.writeReview.review.databaseId,
    );
    expect(mine.node.content).toContain('&lt;script&gt;');
    // Stored as the plain text that was typed.
    const raw = await t.gql(
      `query ($id: ID!) { product(id: $id, idType: DATABASE_ID) { reviews(first: 100) { nodes { databaseId content(format: RAW) } } } }`,
      { id: String(productId) },
    );
    expect(
      raw.body.data.product.reviews.nodes.find((n: { databaseId: number }) => n.databaseId === mine.node.databaseId)
        .content,
    ).toBe('<script>alert("x")</script>\nSecond line & more');
  });

  it('refuses ratings outside 1–5, unknown products, empty content, a bad e-mail and duplicates', async () => {
    const h = headersOf({}, ip());
    for (const rating of [0, 6, -1])
      expect((await review({ rating }, h)).body.errors?.[0]?.message).toBe('Please choose a rating from 1 to 5 stars.');
    const h2 = headersOf({}, ip());
    expect((await review({ commentOn: 999999 }, h2)).body.errors?.[0]?.message).toBe(
      'The ID of the node to comment on is invalid',
    );
    expect((await review({ content: '   ' }, h2)).body.errors?.[0]?.message).toBe('Please type your review.');
    expect((await review({ authorEmail: 'nope' }, h2)).body.errors?.[0]?.message).toBe(
      'Please enter a valid email address.',
    );
    expect((await review({ content: 'x'.repeat(5001) }, h2)).body.errors?.[0]?.message).toMatch(/too long/);
    const h3 = headersOf({}, ip());
    expect((await review({ content: 'Once only.' }, h3)).body.errors).toBeUndefined();
    expect((await review({ content: 'Once only.' }, h3)).body.errors?.[0]?.message).toMatch(
      /^Duplicate comment detected/,
    );
  });

  it('is rate-limited per IP', async () => {
    const h = headersOf({}, ip());
    for (let i = 0; i < 3; i++)
      expect((await review({ content: `Review number ${i}` }, h)).body.errors).toBeUndefined();
    expect((await review({ content: 'One too many' }, h)).body.errors?.[0]?.message).toMatch(/^Too many attempts/);
  });

  it('marks a logged-in buyer as verified owner, nobody else', async () => {
    const buyer = await register(t, newCustomer('buyer'), headersOf({}, ip()));
    const browser = await register(t, newCustomer('browser'), headersOf({}, ip()));
    await placeOrder(t, { customerId: String(buyer.userId), productId, status: 'processing' });
    await placeOrder(t, { customerId: String(browser.userId), productId }); // unpaid: does not count
    const a = await review(
      { content: 'Bought it, love it.', author: 'Buyer', authorEmail: buyer.email },
      headersOf({ authToken: buyer.authToken }, ip()),
    );
    const b = await review(
      { content: 'Never bought it.', author: 'Browser', authorEmail: browser.email },
      headersOf({ authToken: browser.authToken }, ip()),
    );
    // A guest claiming the buyer's e-mail is not verified either.
    const c = await review({ content: 'Pretending.', author: 'Buyer', authorEmail: buyer.email }, headersOf({}, ip()));
    const ids = [a, b, c].map((r) => r.body.data.writeReview.review.databaseId);
    const snap = await t.engine.catalog.snapshot();
    const verified = snap.productsById
      .get(productId)!
      .reviews.filter((r) => ids.includes(r.id))
      .map((r) => [r.id, r.verified] as const);
    expect(new Map(verified)).toEqual(
      new Map([
        [ids[0], true],
        [ids[1], false],
        [ids[2], false],
      ]),
    );
  });

  it('with moderation on, a review is held (not shown or counted) until approved', async () => {
    t.engine.accounts.reviews.settings.requireApproval = true;
    try {
      const before = (await t.gql(PRODUCT, { id: String(productId) })).body.data.product;
      const r = await review({ content: 'Please approve me.' }, headersOf({}, ip()));
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.writeReview.review).toMatchObject({ content: expect.stringContaining('Please approve me.') });
      const status = await t.gql(
        `mutation ($p: Int!) { writeReview(input: { commentOn: $p, rating: 4, content: "Held too.", author: "Zed", authorEmail: "zed@example.test" }) { review { approved status } } }`,
        { p: productId },
        headersOf({}, ip()),
      );
      expect(status.body.data.writeReview.review).toEqual({ approved: false, status: 'HOLD' });
      const after = (await t.gql(PRODUCT, { id: String(productId) })).body.data.product;
      expect(after.reviewCount).toBe(before.reviewCount);
    } finally {
      t.engine.accounts.reviews.settings.requireApproval = false;
    }
  });
});
