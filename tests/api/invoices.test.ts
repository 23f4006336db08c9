// Invoices and credit notes: every order that becomes processing (paid, or cash on delivery) gets one
// invoice, numbered from a gapless yearly series in the transaction that moved the order; a refund gets a
// credit note of its own series naming the invoice. The PDF is read back as its reader sees it (pdftotext):
// numbers, seller VAT ID, totals per rate, the reverse-charge note, the order's language. The confirmation
// mail carries the PDF, and only the order's readers can download it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpCounter } from '../../src/server/db/meta.ts';
import { startViesServer, type ViesServer } from '../fixtures/vies-server.ts';
import { headersOf, register } from './accounts-helpers.ts';
import { placePaidOrder, startAdminEngine, type AdminTestEngine } from './admin-helpers.ts';
import { BILLING, operation, productId, setStock, Shopper } from './shop-helpers.ts';

let t: AdminTestEngine;

/** The rows of a query (drizzle's execute answers differ between PGlite and pg; both carry `rows`). */
async function rowsOf<T>(query: SQL): Promise<T[]> {
  return ((await t.engine.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}
let vies: ViesServer;
let yagi: number;
let cable: number;
const ADD = operation('addToCart');
const COUNTRY = operation('ChangeShippingCounty');
const VAT_ID = operation('UpdateVatId');
const CHECKOUT = operation('Checkout');
const GET_ORDER = operation('getOrder');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'invoices-'));
const SELLER_VAT = 'DE811907980';
/** poppler's text extraction: what a reader of the PDF sees. */
const PDF_TO_TEXT = 'pdftotext';

beforeAll(async () => {
  vies = await startViesServer();
  Object.assign(process.env, {
    VIES_URL: vies.url,
    VIES_TIMEOUT_MS: '800',
    INVOICE_SELLER_NAME: 'Meshfront GmbH',
    INVOICE_SELLER_ADDRESS: 'Funkweg 7|10115 Berlin|Germany',
    INVOICE_SELLER_VAT_ID: SELLER_VAT,
    INVOICE_SELLER_REGISTRATION: 'Amtsgericht Berlin-Charlottenburg HRB 123456',
    CHECKOUT_ORDERS_PER_IP_PER_HOUR: '1000',
    CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR: '1000',
  });
  t = await startAdminEngine();
  yagi = await productId(t, 'yagi-antenna');
  cable = await productId(t, 'n-type-cable');
  // A German shop's example price: €119.00 including 19% VAT.
  await t.engine.database.db.transaction(async (tx) => {
    await tx.execute(sql`update catalog_products set regular_price_cents = 11900 where slug = 'yagi-antenna'`);
    await bumpCounter(tx, 'catalog_version');
  });
  t.engine.catalog.invalidate();
  await setStock(t, 'yagi-antenna', 1000);
  await setStock(t, 'n-type-cable', 1000);
}, 300_000);

afterAll(async () => {
  await t?.close();
  await vies?.stop();
  fs.rmSync(TMP, { recursive: true, force: true });
});

let mailbox = 0;
const email = () => `invoice-${++mailbox}@example.com`;

/** What a reader of the PDF sees, spaces made plain. INVOICE_TEST_PDF_DIR keeps the PDFs to look at. */
function pdfText(pdf: Buffer, name = `${Date.now()}-${Math.random().toString(36).slice(2)}`): string {
  const file = path.join(process.env.INVOICE_TEST_PDF_DIR || TMP, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync(PDF_TO_TEXT, ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[\u00a0\u202f]/g, ' ');
}

async function checkout(s: Shopper, billing: Record<string, string>) {
  const d = await s.ok(CHECKOUT, { paymentMethod: 'cod', billing });
  return d.checkout.order as { databaseId: number; orderKey: string };
}

const invoiceOf = async (orderId: number) => (await t.engine.invoices.invoiceOf(orderId))!;

describe('the invoice of an order', () => {
  it('a German order: numbered, its amounts to the cent as the order, German text and amounts', async () => {
    const s = new Shopper(t, { 'accept-language': 'de-DE' });
    await s.ok(ADD, { productId: yagi, quantity: 1 });
    await s.ok(ADD, { productId: cable, quantity: 3 });
    const placed = await checkout(s, { ...BILLING, email: email() });
    const order = (await t.engine.orders.get(placed.databaseId))!;
    const items = await t.engine.orders.items(order.id);
    const invoice = await invoiceOf(order.id);
    expect(invoice.number).toMatch(/^\d{4}-\d{6}$/);
    expect(invoice.number).toBe(`${invoice.year}-${String(invoice.sequence).padStart(6, '0')}`);
    const doc = invoice.document;
    // Lines and totals as the order has them, to the cent.
    expect(doc.totals.grossCents).toBe(order.totalCents);
    expect(doc.totals.vatCents).toBe(order.totalTaxCents);
    expect(doc.totals.netCents).toBe(order.totalCents - order.totalTaxCents);
    expect(doc.lines.filter((l) => l.kind === 'item').map((l) => [l.netCents, l.vatCents, l.rateBasisPoints])).toEqual(
      items.map((i) => [i.subtotalCents, i.subtotalTaxCents, i.taxRateBasisPoints]),
    );
    expect(doc.rates).toEqual([
      {
        rateBasisPoints: 1900,
        netCents: order.totalCents - order.totalTaxCents,
        vatCents: order.totalTaxCents,
        grossCents: order.totalCents,
      },
    ]);
    expect(doc.seller).toMatchObject({ name: 'Meshfront GmbH', vatId: SELLER_VAT });

    const text = pdfText(await t.engine.invoices.pdf(invoice), 'invoice-de');
    expect(text).toContain(invoice.number);
    expect(text).toContain(`USt-IdNr.: ${SELLER_VAT}`);
    expect(text).toContain('Funkweg 7');
    expect(text).toContain('Yagi Directional Antenna');
    expect(text).not.toContain('Reverse Charge');
    if (order.locale === 'de_DE') {
      const euro = (c: number) =>
        new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' })
          .format(c / 100)
          .replace(/[\u00a0\u202f]/g, ' ');
      expect(text).toContain('Rechnung');
      expect(text).toContain('Leistungsdatum');
      expect(text).toMatch(new RegExp(`Gesamtbetrag\\s+${euro(order.totalCents)}`));
      expect(text).toMatch(new RegExp(`Summe USt\\.\\s+${euro(order.totalTaxCents)}`));
      // The breakdown: rate, net, VAT, gross.
      const net = order.totalCents - order.totalTaxCents;
      expect(text).toMatch(
        new RegExp(`19 %\\s+${euro(net)}\\s+${euro(order.totalTaxCents)}\\s+${euro(order.totalCents)}`),
      );
      expect(text).toContain('Nachnahme');
      // The file is named in the document's language too.
      expect(t.engine.invoices.fileName(invoice)).toBe(`Rechnung-${invoice.number}.pdf`);
    } else {
      throw new Error(`the checkout did not keep the shopper's language (order locale ${order.locale})`);
    }
  });

  it('a business in France with a VIES-confirmed VAT ID: no VAT, the reverse-charge note, the buyer VAT ID', async () => {
    const s = new Shopper(t);
    await s.ok(ADD, { productId: yagi, quantity: 2 });
    await s.ok(COUNTRY, { shippingCountry: 'FR', billingCountry: 'FR' });
    await s.ok(VAT_ID, { billingCountry: 'FR', vatId: 'FR40303265045' });
    const placed = await checkout(s, {
      firstName: 'Jeanne',
      lastName: 'Martin',
      company: 'Réseaux Martin SARL',
      address1: '12 rue de la Paix',
      city: 'Paris',
      postcode: '75002',
      country: 'FR',
      vatId: 'FR40303265045',
      email: email(),
    });
    const order = (await t.engine.orders.get(placed.databaseId))!;
    expect(order.vatReverseCharge).toBe(true);
    const invoice = await invoiceOf(order.id);
    expect(invoice.document.totals).toEqual({ netCents: order.totalCents, vatCents: 0, grossCents: order.totalCents });
    expect(invoice.document.rates.map((r) => r.rateBasisPoints)).toEqual([0]);
    const text = pdfText(await t.engine.invoices.pdf(invoice), 'invoice-reverse-charge');
    expect(text).toContain(invoice.number);
    expect(text).toContain('FR40303265045');
    expect(text).toContain(SELLER_VAT);
    expect(text.replace(/\s+/g, ' ')).toContain('Reverse charge: the recipient accounts for the VAT (Article 196).');
    expect(text).toContain('Réseaux Martin SARL');
    expect(text).toMatch(/Total\s+\$?€?200\.00/);
  });

  it.each([
    ['France, a consumer: 20 % French VAT', { country: 'FR', city: 'Paris', postcode: '75002' }, 2000],
    ['Switzerland: no EU VAT, the net price', { country: 'CH', city: 'Zürich', postcode: '8001' }, 0],
  ] as const)('%s, to the cent as the order', async (_name, address, rateBasisPoints) => {
    const s = new Shopper(t);
    await s.ok(ADD, { productId: yagi, quantity: 1 });
    await s.ok(ADD, { productId: cable, quantity: 3 });
    await s.ok(COUNTRY, { shippingCountry: address.country, billingCountry: address.country });
    const placed = await checkout(s, { ...BILLING, ...address, state: '', email: email() });
    const order = (await t.engine.orders.get(placed.databaseId))!;
    const items = await t.engine.orders.items(order.id);
    const doc = (await invoiceOf(order.id)).document;
    expect(doc.totals).toEqual({
      netCents: order.totalCents - order.totalTaxCents,
      vatCents: order.totalTaxCents,
      grossCents: order.totalCents,
    });
    expect(doc.lines.filter((l) => l.kind === 'item').map((l) => [l.netCents, l.vatCents, l.rateBasisPoints])).toEqual(
      items.map((i) => [i.subtotalCents, i.subtotalTaxCents, i.taxRateBasisPoints]),
    );
    expect(doc.rates.map((r) => r.rateBasisPoints)).toEqual([rateBasisPoints]);
    if (rateBasisPoints === 0) expect(order.totalTaxCents).toBe(0);
    else expect(order.totalTaxCents).toBeGreaterThan(0);
  });

  it('numbers 50 concurrent checkouts 1 … N without a gap or a duplicate; each order has exactly one invoice', async () => {
    const before = await rowsOf<{ n: number }>(
      sql`select coalesce(max(sequence), 0)::int as n from invoices where kind = 'invoice'`,
    );
    const start = Number(before[0]!.n);
    const shoppers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const s = new Shopper(t);
        await s.ok(ADD, { productId: cable, quantity: 1 });
        return s;
      }),
    );
    const placed = await Promise.all(shoppers.map((s) => checkout(s, { ...BILLING, email: email() })));
    const rows = await rowsOf<{ order_id: number; sequence: number }>(
      sql`select order_id, sequence from invoices where kind = 'invoice' and sequence > ${start} order by sequence`,
    );
    expect(rows.map((r) => Number(r.sequence))).toEqual(Array.from({ length: 50 }, (_, i) => start + i + 1));
    expect(new Set(rows.map((r) => r.order_id))).toEqual(new Set(placed.map((o) => o.databaseId)));
  });

  it('a rolled-back transaction leaves no gap: its number goes to the next invoice', async () => {
    const a = await placePaidOrder(t, { lines: [[cable, 1, 1250]], status: 'pending' });
    const b = await placePaidOrder(t, { lines: [[cable, 1, 1250]], status: 'pending' });
    const snap = await t.engine.catalog.snapshot();
    const last = Number(
      (await rowsOf<{ n: number }>(sql`select max(sequence)::int as n from invoices where kind = 'invoice'`))[0]!.n,
    );
    await expect(
      t.engine.database.db.transaction(async (tx) => {
        await t.engine.orders.paymentComplete(tx, snap, a.id, null, 'Paid in a test.');
        expect(await t.engine.invoices.invoiceOf(a.id, tx)).toMatchObject({ sequence: last + 1 });
        throw new Error('the payment is undone');
      }),
    ).rejects.toThrow('the payment is undone');
    expect(await t.engine.invoices.invoiceOf(a.id)).toBeNull();
    await t.engine.database.db.transaction((tx) =>
      t.engine.orders.paymentComplete(tx, snap, b.id, null, 'Paid in a test.'),
    );
    expect(await invoiceOf(b.id)).toMatchObject({ sequence: last + 1 });
  });

  it('an order that is not paid has no invoice; completing a processing order keeps its one invoice', async () => {
    const pending = await placePaidOrder(t, { lines: [[cable, 1, 1250]], status: 'pending' });
    expect(await t.engine.invoices.listForOrder(pending.id)).toEqual([]);
    const paid = await placePaidOrder(t, { lines: [[cable, 1, 1250]] });
    const first = await invoiceOf(paid.id);
    await t.ok('adminUpdateOrderStatus', { input: { orderId: paid.id, status: 'COMPLETED', notifyCustomer: false } });
    expect((await t.engine.orders.get(paid.id))!.status).toBe('completed');
    expect(await t.engine.invoices.listForOrder(paid.id)).toEqual([first]);
  });
});

describe('credit notes', () => {
  it('a refund gets a credit note of its own series naming the invoice; the last refund credits what is left exactly', async () => {
    const s = new Shopper(t);
    await s.ok(ADD, { productId: yagi, quantity: 1 });
    await s.ok(ADD, { productId: cable, quantity: 2 });
    const placed = await checkout(s, { ...BILLING, email: email() });
    const invoice = await invoiceOf(placed.databaseId);
    const order = (await t.engine.orders.get(placed.databaseId))!;
    await t.ok('adminRefundOrder', {
      input: {
        orderId: order.id,
        amountCents: 2000,
        reason: 'One cable was bent.',
        idempotencyKey: `inv-${order.id}-1`,
      },
    });
    const [, first] = await t.engine.invoices.listForOrder(order.id);
    expect(first).toMatchObject({ kind: 'credit-note', invoiceId: invoice.id, grossCents: 2000 });
    expect(first!.number).toMatch(/^CN-\d{4}-\d{6}$/);
    expect(first!.document.corrects).toEqual({ number: invoice.number, issueDate: invoice.issueDate });
    expect(first!.document.rates).toEqual([{ rateBasisPoints: 1900, netCents: 1681, vatCents: 319, grossCents: 2000 }]);
    const text = pdfText(await t.engine.invoices.pdf(first!), 'credit-note-en');
    expect(text).toContain(first!.number);
    expect(text).toContain(`Corrects invoice ${invoice.number}`);
    expect(text).toContain('Reason: One cable was bent.');
    expect(text).toMatch(/Total credited\s+€20\.00/);
    expect(t.engine.invoices.fileName(first!)).toBe(`Credit-note-${first!.number}.pdf`);
    expect(t.engine.invoices.fileName({ ...first!, locale: 'fr_FR' })).toBe(`Avoir-${first!.number}.pdf`);
    expect(t.engine.invoices.fileName({ ...first!, locale: 'pt_BR' })).toBe(`Nota-de-credito-${first!.number}.pdf`);

    await t.ok('adminRefundOrder', { input: { orderId: order.id, idempotencyKey: `inv-${order.id}-2` } });
    expect((await t.engine.orders.get(order.id))!.status).toBe('refunded');
    const all = await t.engine.invoices.listForOrder(order.id);
    expect(all.map((r) => r.kind)).toEqual(['invoice', 'credit-note', 'credit-note']);
    const credited = all.slice(1).map((r) => r.document.totals);
    expect(credited.reduce((sum, c) => sum + c.grossCents, 0)).toBe(invoice.document.totals.grossCents);
    expect(credited.reduce((sum, c) => sum + c.vatCents, 0)).toBe(invoice.document.totals.vatCents);
    expect(all[2]!.sequence).toBe(all[1]!.sequence + 1);
  });
});

describe('the confirmation mail and the downloads', () => {
  it('the order confirmation carries the invoice PDF', async () => {
    const s = new Shopper(t);
    await s.ok(ADD, { productId: cable, quantity: 1 });
    const to = email();
    const placed = await checkout(s, { ...BILLING, email: to });
    const invoice = await invoiceOf(placed.databaseId);
    let mail = null;
    for (let i = 0; i < 100 && !mail; i++) {
      mail = (await t.engine.commerceMailer.readOutbox({ to }))[0] ?? null;
      if (!mail) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail?.attachments).toEqual([`Invoice-${invoice.number}.pdf`]);
    const eml = fs.readFileSync(mail!.file, 'utf8');
    expect(eml).toMatch(/Content-Type: application\/pdf; name=Invoice-\d{4}-\d{6}\.pdf/);
    const base64 =
      /Content-Disposition: attachment; filename=[^\r\n]+\r\n(?:[^\r\n]+\r\n)*\r\n([A-Za-z0-9+/=\r\n]+)/.exec(eml)![1]!;
    const pdf = Buffer.from(base64.replace(/\r\n/g, ''), 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(pdf)).toContain(invoice.number);
  });

  it('an order paid after its confirmation (on hold, then processing) gets its invoice in a mail of its own', async () => {
    const s = new Shopper(t);
    await s.ok(ADD, { productId: await productId(t, 'mesh-os'), quantity: 1 });
    const to = email();
    const placed = await checkout(s, { ...BILLING, email: to });
    expect((await t.engine.orders.get(placed.databaseId))!.status).toBe('on-hold');
    expect(await t.engine.invoices.listForOrder(placed.databaseId)).toEqual([]);
    await t.ok('adminUpdateOrderStatus', { input: { orderId: placed.databaseId, status: 'PROCESSING' } });
    const invoice = await invoiceOf(placed.databaseId);
    let mail = null;
    for (let i = 0; i < 100 && !mail; i++) {
      mail = (await t.engine.commerceMailer.readOutbox({ to, subject: invoice.number }))[0] ?? null;
      if (!mail) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail).toMatchObject({
      subject: `Your invoice ${invoice.number} for order #${placed.databaseId}`,
      attachments: [`Invoice-${invoice.number}.pdf`],
    });
    // The confirmation went out before, without an invoice.
    const confirmation = (await t.engine.commerceMailer.readOutbox({ to })).find((m) => m.subject !== mail!.subject);
    expect(confirmation?.attachments).toEqual([]);
  });

  it('the owner and the order-key holder download the PDF; another customer and a forged link do not', async () => {
    const owner = await register(t);
    const s = new Shopper(t, headersOf(owner));
    s.token = owner.sessionToken;
    await s.ok(ADD, { productId: cable, quantity: 1 });
    const placed = await checkout(s, { ...BILLING, email: owner.email });
    const invoice = await invoiceOf(placed.databaseId);

    const asOwner = await s.ok(GET_ORDER, { id: String(placed.databaseId), idType: 'DATABASE_ID' });
    expect(asOwner.order.invoices).toEqual([
      { kind: 'INVOICE', number: invoice.number, downloadUrl: expect.stringMatching(/^\/api\/invoices\//) },
    ]);
    const download = async (url: string) => {
      const { handleInvoiceRequest } = await import('../../src/server/invoices/http.ts');
      const token = url.replace(/^\/api\/invoices\//, '');
      return handleInvoiceRequest(new Request(`http://meshfront.test${url}`), token, t.engine.invoices);
    };
    const r = await download(asOwner.order.invoices[0].downloadUrl);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="Invoice-${invoice.number}.pdf"`);
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    expect(pdfText(Buffer.from(await r.arrayBuffer()))).toContain(invoice.number);

    const keyHolder = new Shopper(t);
    const byKey = await keyHolder.ok(GET_ORDER, { id: placed.orderKey, idType: 'ORDER_KEY' });
    expect((await download(byKey.order.invoices[0].downloadUrl)).status).toBe(200);

    const other = await register(t);
    const stranger = new Shopper(t, headersOf(other));
    expect((await stranger.ok(GET_ORDER, { id: String(placed.databaseId), idType: 'DATABASE_ID' })).order).toBeNull();
    // No link at all, a made-up one, and a real link whose claims were changed to another invoice.
    expect((await download('/api/invoices/')).status).toBe(404);
    expect((await download('/api/invoices/nonsense')).status).toBe(403);
    const [payload, mac] = asOwner.order.invoices[0].downloadUrl.replace('/api/invoices/', '').split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, i: claims.i - 1 })).toString('base64url');
    const refused = await download(`/api/invoices/${forged}.${mac}`);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe('Invalid invoice link.');
  });
});
