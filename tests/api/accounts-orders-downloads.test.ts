// A customer's orders and downloads: nobody reads another customer's by any id; signed download links,
// expiry and the remaining count (atomic, never below zero under concurrent downloads).
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleDownloadRequest } from '../../src/server/downloads/http.ts';
import { ACCESS_EXPIRED, INVALID_LINK, LIMIT_REACHED, LINK_EXPIRED } from '../../src/server/downloads/service.ts';
import { FIXTURE_CATALOG, startTestEngine, type TestEngine } from './harness.ts';
import { headersOf, newCustomer, op, placeOrder, register } from './accounts-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestEngine;
let ipCounter = 0;
const ip = () => `100.64.0.${++ipCounter}`;
let meshOs: number;
let antenna: number;

beforeAll(async () => {
  process.env.TRUST_PROXY = '1';
  process.env.PASSWORD_SCRYPT_LOG2N = '12';
  process.env.PUBLIC_SITE_URL = 'https://shop.meshfront.test';
  t = await startTestEngine();
  const snap = await t.engine.catalog.snapshot();
  const bySlug = (s: string) => [...snap.productsById.values()].find((p) => p.slug === s)!.id;
  meshOs = bySlug('mesh-os');
  antenna = bySlug('omni-antenna');
});
afterAll(async () => {
  await t?.close();
});

const download = (url: string) => {
  const token = new URL(url).pathname.split('/').pop()!;
  return handleDownloadRequest(new Request(url), token, t.engine.accounts.downloads);
};

describe('orders and downloads belong to their customer', () => {
  it('getOrders / getDownloads / order / customer(id) show a customer only their own', async () => {
    const a = await register(t, newCustomer('owner'), headersOf({}, ip()));
    const b = await register(t, newCustomer('other'), headersOf({}, ip()));
    const orderA = await placeOrder(t, { customerId: String(a.userId), productId: meshOs, status: 'completed' });
    const orderA2 = await placeOrder(t, { customerId: String(a.userId), productId: antenna });
    await placeOrder(t, { customerId: String(b.userId), productId: antenna, status: 'processing' });
    const ha = headersOf({ authToken: a.authToken, sessionToken: a.sessionToken });
    const hb = headersOf({ authToken: b.authToken, sessionToken: b.sessionToken });

    const ordersA = (await t.gql(op('getOrders'), {}, ha)).body;
    expect(ordersA.errors).toBeUndefined();
    expect(ordersA.data.customer.orders.nodes.map((o: { databaseId: number }) => o.databaseId)).toEqual([
      orderA2.id,
      orderA.id,
    ]);
    expect(ordersA.data.customer.orders.nodes[1]).toMatchObject({
      status: 'COMPLETED',
      orderNumber: String(orderA.id),
      needsPayment: false,
    });
    expect(ordersA.data.customer.orders.nodes[1].lineItems.nodes[0]).toMatchObject({
      quantity: 1,
      product: { node: { databaseId: meshOs } },
    });
    const ordersB = (await t.gql(op('getOrders'), {}, hb)).body.data.customer.orders.nodes.map(
      (o: { databaseId: number }) => o.databaseId,
    );
    expect(ordersB).not.toContain(orderA.id);
    expect(ordersB).toHaveLength(1);

    // B asking for A's order by any id, or for A as customer: nothing.
    for (const [id, idType] of [
      [String(orderA.id), 'DATABASE_ID'],
      [Buffer.from(`order:${orderA.id}`).toString('base64'), 'ID'],
    ]) {
      const r = await t.gql(op('getOrder'), { id, idType }, hb);
      expect(r.body.data.order).toBeNull();
    }
    const asB = await t.gql(
      `query ($id: Int) { customer(customerId: $id) { databaseId email orders { nodes { databaseId } } } }`,
      { id: a.userId },
      hb,
    );
    expect(asB.body.data.customer).toBeNull();
    const asB2 = await t.gql(
      `query ($id: ID) { customer(id: $id) { databaseId } }`,
      { id: Buffer.from(`user:${a.userId}`).toString('base64') },
      hb,
    );
    expect(asB2.body.data.customer).toBeNull();
    // A's session token without A's login (e.g. after logout) shows no orders or downloads.
    const sessionOnly = await t.gql(op('getOrders'), {}, headersOf({ sessionToken: a.sessionToken }));
    expect(sessionOnly.body.data.customer.orders.nodes).toEqual([]);
    const dlSessionOnly = await t.gql(op('getDownloads'), {}, headersOf({ sessionToken: a.sessionToken }));
    expect(dlSessionOnly.body.data.customer.downloadableItems.nodes).toEqual([]);
    // A guest sees nothing.
    expect((await t.gql(op('getOrders'), {})).body.data.customer.orders.nodes).toEqual([]);

    const dlA = (await t.gql(op('getDownloads'), {}, ha)).body;
    expect(dlA.errors).toBeUndefined();
    expect(dlA.data.customer.downloadableItems.nodes).toHaveLength(1);
    const item = dlA.data.customer.downloadableItems.nodes[0];
    expect(item).toMatchObject({
      name: 'Mesh OS 1.0',
      downloadsRemaining: 5,
      product: { databaseId: meshOs, slug: 'mesh-os' },
    });
    expect(item.url).toMatch(/^https:\/\/shop\.meshfront\.test\/api\/downloads\/[\w-]+\.[\w-]{43}$/);
    expect((await t.gql(op('getDownloads'), {}, hb)).body.data.customer.downloadableItems.nodes).toEqual([]);
    // An expired auth token is an error the storefront can act on, not an empty list.
    const expired = await t.gql(op('getDownloads'), {}, headersOf({ authToken: `${a.authToken.slice(0, -4)}AAAA` }));
    expect(expired.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('the download route', () => {
  async function setup(quantity = 1) {
    const c = await register(t, newCustomer('dl'), headersOf({}, ip()));
    const order = await placeOrder(t, {
      customerId: String(c.userId),
      productId: meshOs,
      status: 'completed',
      quantity,
    });
    const items = (await t.gql(op('getDownloads'), {}, headersOf({ authToken: c.authToken }))).body.data.customer
      .downloadableItems.nodes;
    const [perm] = await t.engine.orders.downloads(order.id);
    return { c, order, item: items[0], perm: perm! };
  }

  it('streams the file as an attachment and counts down to the limit, then refuses', async () => {
    const { item, perm } = await setup();
    const file = fs.readFileSync(path.join(FIXTURE_CATALOG, 'downloads', 'mesh-os-1.0.zip'));
    for (let left = 4; left >= 0; left--) {
      const r = await download(item.url);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-disposition')).toBe(
        `attachment; filename="mesh-os-1.0.zip"; filename*=UTF-8''mesh-os-1.0.zip`,
      );
      expect(r.headers.get('cache-control')).toBe('private, no-store');
      expect(Buffer.from(await r.arrayBuffer()).equals(file)).toBe(true);
      expect(r.headers.get('x-downloads-remaining')).toBe(String(left));
    }
    const over = await download(item.url);
    expect(over.status).toBe(403);
    expect(await over.text()).toBe(LIMIT_REACHED);
    const [after] = await t.engine.orders.downloads(perm.orderId);
    expect(after!.downloadsRemaining).toBe(0);
  });

  it('a browser prefetch of the link (Sec-Purpose / Purpose: prefetch) sends no file and counts nothing', async () => {
    const { item, perm } = await setup();
    const token = new URL(item.url).pathname.split('/').pop()!;
    const prefetches: Record<string, string>[] = [
      { 'sec-purpose': 'prefetch' },
      { 'sec-purpose': 'prefetch;prerender' },
      { purpose: 'prefetch' },
    ];
    for (const headers of prefetches) {
      const r = await handleDownloadRequest(new Request(item.url, { headers }), token, t.engine.accounts.downloads);
      expect(r.status).toBe(204);
      expect(r.headers.get('cache-control')).toBe('private, no-store');
      expect(await r.text()).toBe('');
    }
    const [after] = await t.engine.orders.downloads(perm.orderId);
    expect(after!.downloadsRemaining).toBe(5);
    // The shopper's own click still downloads and counts.
    const r = await download(item.url);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-downloads-remaining')).toBe('4');
  });

  it('never goes below zero with concurrent downloads', async () => {
    const { item, perm } = await setup(2);
    expect(item.downloadsRemaining).toBe(10);
    await t.engine.database.db.execute(
      sql`update download_permissions set downloads_remaining = 3 where id = ${perm.id}`,
    );
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        download(item.url).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(3);
    expect(results.filter((s) => s === 403)).toHaveLength(9);
    const [after] = await t.engine.orders.downloads(perm.orderId);
    expect(after!.downloadsRemaining).toBe(0);
  });

  it('refuses an expired link, a forged or tampered link, another owner’s link and an expired permission', async () => {
    const { c, item, perm } = await setup();
    const svc = t.engine.accounts.downloads;
    const old = svc.sign(perm.id, String(c.userId), Date.now() - svc.settings.linkTtlSeconds * 1000 - 1000);
    const expiredLink = await download(`https://shop.meshfront.test/api/downloads/${old}`);
    expect(expiredLink.status).toBe(403);
    expect(await expiredLink.text()).toBe(LINK_EXPIRED);
    const token = new URL(item.url).pathname.split('/').pop()!;
    const [payload, mac] = token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ p: perm.id + 1, o: String(c.userId), e: Math.floor(Date.now() / 1000) + 600 }),
    ).toString('base64url');
    expect((await download(`https://x.test/api/downloads/${forgedPayload}.${mac}`)).status).toBe(404);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    expect((await download(`https://x.test/api/downloads/${payload}.${flip(mac!, 10)}`)).status).toBe(404);
    expect((await download(`https://x.test/api/downloads/${payload}.${flip(mac!, 42)}`)).status).toBe(404);
    expect((await download(`https://x.test/api/downloads/${flip(payload!, 3)}.${mac}`)).status).toBe(404);
    expect(await (await download(`https://x.test/api/downloads/garbage`)).text()).toBe(INVALID_LINK);
    // Signed by us but for someone who does not own the order.
    const notYours = await download(`https://x.test/api/downloads/${svc.sign(perm.id, '999999')}`);
    expect(notYours.status).toBe(403);
    await t.engine.database.db.execute(
      sql`update download_permissions set access_expires = now() - interval '1 day' where id = ${perm.id}`,
    );
    const gone = await download(item.url);
    expect(gone.status).toBe(403);
    expect(await gone.text()).toBe(ACCESS_EXPIRED);
    const active = await t.gql(
      `query { customer { downloadableItems(where: { active: true }) { nodes { id } } } }`,
      {},
      headersOf({ authToken: c.authToken }),
    );
    expect(active.body.data.customer.downloadableItems.nodes).toEqual([]);
  });

  it('an unpaid or refunded order gives no downloads', async () => {
    const c = await register(t, newCustomer('unpaid'), headersOf({}, ip()));
    await placeOrder(t, { customerId: String(c.userId), productId: meshOs });
    expect(
      (await t.gql(op('getDownloads'), {}, headersOf({ authToken: c.authToken }))).body.data.customer.downloadableItems
        .nodes,
    ).toEqual([]);
    const paid = await setup();
    await t.engine.database.db.transaction((tx) => t.engine.orders.refund(tx, paid.order.id, 'Refunded in a test.'));
    expect((await download(paid.item.url)).status).toBe(404);
  });
});
