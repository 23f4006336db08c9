// The rest of running the shop through the admin API: coupons (create, edit, expire, usage), review
// moderation (with REVIEWS_REQUIRE_APPROVAL: approve publishes, reject hides), contact messages (inbox,
// answered, CSV) and newsletter subscribers (list, CSV), and the dashboard's figures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Publisher } from '../../src/server/publish/index.ts';
import { ContactService } from '../../src/server/contact/service.ts';
import { newsletterSubscribers } from '../../src/server/newsletter/tables.ts';
import { placePaidOrder, sleep, startAdminEngine, type AdminTestEngine } from './admin-helpers.ts';
import { BILLING, operation, productId, Shopper } from './shop-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: AdminTestEngine;
beforeAll(async () => {
  process.env.REVIEWS_REQUIRE_APPROVAL = 'true';
  t = await startAdminEngine();
});
afterAll(async () => {
  await t?.close();
});

describe('coupons', () => {
  it('creates a coupon shoppers can use, shows its usage, edits and expires it', async () => {
    const c = (
      await t.ok('adminCreateCoupon', {
        input: {
          code: 'Spring-10',
          discountType: 'PERCENT',
          amountCents: 1000,
          usageLimit: 5,
          description: 'Spring sale',
        },
      })
    ).adminCreateCoupon;
    expect(c).toMatchObject({
      code: 'spring-10',
      discountType: 'PERCENT',
      amountCents: 1000,
      usageLimit: 5,
      usageCount: 0,
      expired: false,
      expiresAt: null,
      usages: [],
    });
    // A shopper uses it at checkout.
    const s = new Shopper(t);
    await s.ok(operation('addToCart'), { productId: await productId(t, 'omni-antenna'), quantity: 1 });
    await s.ok(operation('applyCoupon'), { code: 'SPRING-10' });
    const order = (
      await s.ok(operation('Checkout'), {
        paymentMethod: 'cod',
        billing: { ...BILLING, email: 'coupon.user@example.test' },
      })
    ).checkout.order;
    const used = (await t.ok('adminCoupon', { code: 'spring-10' })).adminCoupon;
    expect(used.usageCount).toBe(1);
    expect(used.usages).toEqual([
      { orderId: order.databaseId, customer: 'coupon.user@example.test', date: expect.any(String) },
    ]);
    const edited = (
      await t.ok('adminUpdateCoupon', {
        id: c.id,
        input: { amountCents: 1500, expiresAt: '2999-12-31', minimumCents: 5000 },
      })
    ).adminUpdateCoupon;
    expect(edited).toMatchObject({
      amountCents: 1500,
      minimumCents: 5000,
      expiresAt: '2999-12-31T00:00:00.000Z',
      expired: false,
      usageCount: 1,
    });
    const expired = (await t.ok('adminExpireCoupon', { id: c.id })).adminExpireCoupon;
    expect(expired.expired).toBe(true);
    const late = new Shopper(t);
    await late.ok(operation('addToCart'), { productId: await productId(t, 'omni-antenna'), quantity: 1 });
    expect(await late.fails(operation('applyCoupon'), { code: 'spring-10' })).toBe(
      'Coupon &quot;spring-10&quot; has expired.',
    );
    expect((await t.ok('adminCoupons', { search: 'spring' })).adminCoupons).toMatchObject({
      total: 1,
      nodes: [{ code: 'spring-10', usageCount: 1, expired: true }],
    });
  });

  it('refuses invalid coupons with a reason', async () => {
    expect(
      (await t.fails('adminCreateCoupon', { input: { code: 'half-off', discountType: 'PERCENT', amountCents: 15000 } }))
        .message,
    ).toBe('A percent coupon cannot take more than 100% (amount 10000).');
    expect(
      (await t.fails('adminCreateCoupon', { input: { code: 'no spaces please', amountCents: 100 } })).message,
    ).toBe('The code may contain letters, digits, hyphens and underscores only');
    await t.ok('adminCreateCoupon', { input: { code: 'five-off', discountType: 'FIXED_CART', amountCents: 500 } });
    expect(
      (
        await t.fails('adminCreateCoupon', {
          input: { code: 'FIVE-OFF', discountType: 'FIXED_CART', amountCents: 500 },
        })
      ).message,
    ).toBe('A coupon with the code "five-off" exists already.');
    expect(
      (
        await t.fails('adminCreateCoupon', {
          input: { code: 'min-max', amountCents: 500, minimumCents: 9000, maximumCents: 1000 },
        })
      ).message,
    ).toBe('The minimum spend must not be above the maximum spend.');
    expect((await t.fails('adminExpireCoupon', { id: 999999 })).code).toBe('NOT_FOUND');
  });
});

describe('reviews', () => {
  it('approving a held review publishes it (rating and count follow); rejecting hides it again', async () => {
    const id = await productId(t, 'yagi-antenna');
    const WRITE = 'mutation ($input: WriteReviewInput!) { writeReview(input: $input) { review { databaseId } } }';
    const SHOP = 'query ($id: ID!) { product(id: $id, idType: DATABASE_ID) { reviewCount averageRating } }';
    const before = (await t.data(SHOP, { id: String(id) })).product;
    const written = await t.gql(
      WRITE,
      {
        input: {
          commentOn: id,
          rating: 1,
          content: 'Arrived broken.',
          author: 'Tess',
          authorEmail: 'tess@example.test',
        },
      },
      { 'x-forwarded-for': '203.0.113.9' },
    );
    const reviewId = written.body.data.writeReview.review.databaseId;
    const pending = (await t.ok('adminReviews', { status: 'PENDING' })).adminReviews;
    expect(pending.nodes).toContainEqual(
      expect.objectContaining({
        id: reviewId,
        productId: id,
        rating: 1,
        content: 'Arrived broken.',
        author: 'Tess',
        status: 'PENDING',
      }),
    );
    expect((await t.ok('adminDashboard')).adminDashboard.pendingReviews).toBe(pending.total);
    expect((await t.data(SHOP, { id: String(id) })).product.reviewCount).toBe(before.reviewCount);
    expect((await t.ok('adminModerateReview', { id: reviewId, status: 'APPROVED' })).adminModerateReview.status).toBe(
      'APPROVED',
    );
    expect((await t.data(SHOP, { id: String(id) })).product.reviewCount).toBe(before.reviewCount + 1);
    expect((await t.ok('adminModerateReview', { id: reviewId, status: 'REJECTED' })).adminModerateReview.status).toBe(
      'REJECTED',
    );
    expect((await t.data(SHOP, { id: String(id) })).product).toEqual(before);
    expect((await t.fails('adminModerateReview', { id: 999999, status: 'APPROVED' })).code).toBe('NOT_FOUND');
  });
});

describe('contact messages and newsletter subscribers', () => {
  it('lists messages newest first, marks them answered, exports CSV safely', async () => {
    const contact = new ContactService(t.engine.database.db, {
      mail: t.engine.mail,
      supportEmail: 'support@example.test',
      log: () => {},
    });
    const a = await contact.submit(
      {
        firstName: 'Ana',
        lastName: 'Lima',
        email: 'ana@example.test',
        phone: '',
        message: 'Does the Bravo work in the rain?',
        locale: 'pt_BR',
      },
      { remoteIp: null, userAgent: null, botScore: null },
    );
    const b = await contact.submit(
      {
        firstName: '=HYPERLINK("http://evil")',
        lastName: 'O"Neil',
        email: 'x@example.test',
        phone: '+1 555',
        message: 'Line one,\nline two',
        locale: 'en_US',
      },
      { remoteIp: null, userAgent: null, botScore: null },
    );
    const inbox = (await t.ok('adminContactMessages', { answered: false })).adminContactMessages;
    expect(inbox.nodes.map((m: any) => m.id)).toEqual([b.id, a.id]);
    expect((await t.ok('adminDashboard')).adminDashboard.unansweredMessages).toBe(2);
    const answered = (await t.ok('adminSetMessageAnswered', { id: a.id, answered: true })).adminSetMessageAnswered;
    expect(answered).toMatchObject({ id: a.id, answered: true, answeredAt: expect.any(String) });
    expect(
      (await t.ok('adminContactMessages', { answered: false })).adminContactMessages.nodes.map((m: any) => m.id),
    ).toEqual([b.id]);
    expect((await t.ok('adminDashboard')).adminDashboard.unansweredMessages).toBe(1);
    const csv = (await t.ok('adminExportCsv', { kind: 'CONTACT_MESSAGES' })).adminExportCsv;
    expect(csv).toMatchObject({
      contentType: 'text/csv; charset=utf-8',
      rows: 2,
      fileName: expect.stringMatching(/^contact-messages-\d{4}-\d{2}-\d{2}\.csv$/),
    });
    const lines = csv.csv.split('\r\n');
    expect(lines[0]).toBe('id,received_at,first_name,last_name,email,phone,locale,message,answered_at,mail_status');
    expect(lines[1]).toMatch(
      new RegExp(`^${a.id},[^,]+,Ana,Lima,ana@example.test,,pt_BR,Does the Bravo work in the rain\\?,\\d{4}-`),
    );
    // A formula is defused with an apostrophe; quotes doubled; the line break stays inside the quoted field.
    expect(csv.csv).toContain(`${b.id},`);
    expect(csv.csv).toContain(
      `,"'=HYPERLINK(""http://evil"")","O""Neil",x@example.test,'+1 555,en_US,"Line one,\nline two",,`,
    );
  });

  it('lists newsletter subscribers by status and exports them without token hashes', async () => {
    await t.engine.database.db.insert(newsletterSubscribers).values([
      {
        email: 'confirmed@example.test',
        status: 'confirmed',
        locale: 'de_DE',
        confirmedAt: new Date('2026-01-02T10:00:00Z'),
        unsubscribeTokenHash: 'secret-hash-1',
      },
      { email: 'waiting@example.test', status: 'pending', confirmTokenHash: 'secret-hash-2' },
    ]);
    const confirmed = (await t.ok('adminNewsletterSubscribers', { status: 'CONFIRMED' })).adminNewsletterSubscribers;
    expect(confirmed).toMatchObject({
      total: 1,
      nodes: [
        {
          email: 'confirmed@example.test',
          status: 'CONFIRMED',
          locale: 'de_DE',
          confirmedAt: '2026-01-02T10:00:00.000Z',
        },
      ],
    });
    expect((await t.ok('adminNewsletterSubscribers', {})).adminNewsletterSubscribers.total).toBe(2);
    const csv = (await t.ok('adminExportCsv', { kind: 'NEWSLETTER_SUBSCRIBERS', status: 'CONFIRMED' })).adminExportCsv;
    expect(csv.rows).toBe(1);
    expect(csv.csv).toMatch(
      /^id,email,status,locale,signed_up_at,confirmed_at,unsubscribed_at\r\n\d+,confirmed@example\.test,confirmed,de_DE,[^,]+,2026-01-02T10:00:00\.000Z,\r\n$/,
    );
    expect(csv.csv).not.toContain('secret-hash');
  });
});

describe('dashboard', () => {
  it("counts today's sales and revenue (refunds taken off), orders to ship", async () => {
    const before = (await t.ok('adminDashboard')).adminDashboard;
    const id = await productId(t, 'omni-antenna');
    await t.ok('adminSetStock', { id, input: { manageStock: true, stockQuantity: 50 } });
    const a = await placePaidOrder(t, { lines: [[id, 1, 5000]] });
    await placePaidOrder(t, { lines: [[id, 1, 2500]], status: 'pending' });
    await placePaidOrder(t, { lines: [[id, 1, 9900]], date: new Date(Date.now() - 3 * 86_400_000) });
    await t.ok('adminRefundOrder', { input: { orderId: a.id, amountCents: 1000, idempotencyKey: `dash-${a.id}` } });
    const after = (await t.ok('adminDashboard')).adminDashboard;
    expect(after.date).toBe(new Date().toISOString().slice(0, 10));
    expect(after.ordersToday).toBe(before.ordersToday + 1);
    expect(after.revenueTodayCents).toBe(before.revenueTodayCents + 5000 - 1000);
    expect(after.ordersToShip).toBe(before.ordersToShip + 2);
    expect(after.ordersByStatus.find((s: any) => s.status === 'PENDING').count).toBe(
      before.ordersByStatus.find((s: any) => s.status === 'PENDING').count + 1,
    );
  });
});

describe('publishing', () => {
  it('shows that catalog changes wait for a publish, starts one (only one at a time) and reports when it is live', async () => {
    const buildsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-admin-builds-'));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // A stand-in for astro build: writes a small complete site once released.
    t.admin.usePublisher(
      new Publisher({
        db: t.engine.database.db,
        settings: { buildsDir, projectDir: process.cwd(), keepBuilds: 2, buildTimeoutMs: 60_000 },
        heartbeatMs: 50,
        builder: async (outDir, { log }) => {
          log('building the stand-in site');
          await gate;
          fs.mkdirSync(path.join(outDir, 'server'), { recursive: true });
          fs.mkdirSync(path.join(outDir, 'client'), { recursive: true });
          fs.writeFileSync(
            path.join(outDir, 'server', 'entry.mjs'),
            'export const handler = (req, res) => res.end("ok");\n',
          );
          fs.writeFileSync(path.join(outDir, 'client', 'index.html'), '<!doctype html><title>ok</title>');
        },
      }),
    );
    try {
      await t.ok('adminSetPrice', { id: await productId(t, 'yagi-antenna'), input: { regularPriceCents: 8900 } });
      const before = (await t.ok('adminPublishStatus')).adminPublishStatus;
      expect(before).toMatchObject({ state: 'IDLE', stale: true });
      const started = (await t.ok('adminPublish')).adminPublish;
      expect(started.state).toBe('RUNNING');
      expect(await t.fails('adminPublish')).toEqual({
        message: expect.stringMatching(/^A publish is already running/),
        code: 'CONFLICT',
      });
      release();
      let status = started;
      for (let i = 0; i < 100 && status.state === 'RUNNING'; i++) {
        await sleep(100);
        status = (await t.ok('adminPublishStatus')).adminPublishStatus;
      }
      expect(status).toMatchObject({
        state: 'IDLE',
        stale: false,
        error: null,
        publishedCatalogVersion: status.catalogVersion,
      });
      expect(status.lastBuildId).toBeTruthy();
      expect(fs.existsSync(path.join(buildsDir, status.lastBuildId, 'client', 'index.html'))).toBe(true);
    } finally {
      release();
      fs.rmSync(buildsDir, { recursive: true, force: true });
    }
  });
});
