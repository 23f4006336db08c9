// Variation choices by their term names ("5.8 dBi", "EU868"), never the slugs they are keyed on ("5-8-dbi",
// "eu868"), in the shopper's language where a term is translated: in the cart, on the order line, in the
// confirmation mail, on the invoice and on the admin's order and product screens. An order keeps the names
// as they were shown when it was placed, so renaming a term later does not change it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpCounter } from '../../src/server/db/meta.ts';
import { startAdminEngine, type AdminTestEngine } from './admin-helpers.ts';
import { ENGINE_START_TIMEOUT_MS, FIXTURE_CATALOG } from './harness.ts';
import { BILLING, operation, productId, Shopper, variationId } from './shop-helpers.ts';

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const writeJson = (file: string, value: unknown) => fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** The fixture catalog with the Alpha gateway sold by band and antenna gain, whose slugs look nothing like their names. */
function gainFixture(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-variation-names-'));
  fs.cpSync(FIXTURE_CATALOG, dir, { recursive: true });
  const attributesFile = path.join(dir, 'attributes.json');
  const attributes = readJson(attributesFile);
  const band = attributes.find((a: { slug: string }) => a.slug === 'pa_frequency-band');
  band.translations = { de_DE: { name: 'Frequenzband' } };
  attributes.push({
    slug: 'pa_gain',
    name: 'Antenna gain',
    translations: { de_DE: { name: 'Antennengewinn' } },
    terms: [
      { slug: '5-8-dbi', name: '5.8 dBi', translations: { de_DE: { name: '5,8 dBi' } } },
      { slug: '3-dbi', name: '3 dBi' },
    ],
  });
  writeJson(attributesFile, attributes);

  const alphaFile = path.join(dir, 'products/alpha-gateway.json');
  const alpha = readJson(alphaFile);
  alpha.attributes.push({ name: 'pa_gain', options: ['5-8-dbi', '3-dbi'], variation: true });
  alpha.defaultAttributes.pa_gain = '5-8-dbi';
  const gainOf: Record<string, string> = { 'FX-ALPHA-EU': '5-8-dbi', 'FX-ALPHA-US': '3-dbi', 'FX-ALPHA-AS': '5-8-dbi' };
  for (const v of alpha.variations) v.attributes.pa_gain = gainOf[v.sku];
  writeJson(alphaFile, alpha);
  return dir;
}

const CART_LINES = /* GraphQL */ `
  query cartLines {
    cart {
      contents {
        nodes {
          variation {
            node { name }
            attributes { name label value valueName }
          }
        }
      }
    }
  }
`;

let t: AdminTestEngine;
let dir: string;
let alphaEu: number;
beforeAll(async () => {
  dir = gainFixture();
  t = await startAdminEngine({
    catalogDir: dir,
    env: { CHECKOUT_ORDERS_PER_IP_PER_HOUR: '1000', CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR: '1000' },
  });
  alphaEu = await variationId(t, 'FX-ALPHA-EU');
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, ENGINE_START_TIMEOUT_MS);

async function cartWithAlpha(language: string) {
  const s = new Shopper(t, { 'accept-language': language });
  await s.ok(operation('addToCart'), { productId: alphaEu, quantity: 1 });
  return s;
}

async function confirmationMail(to: string, orderId: number): Promise<{ text: string; html: string }> {
  for (let i = 0; i < 100; i++) {
    const mail = await t.engine.commerceMailer.readOutbox({ to, subject: String(orderId) });
    if (mail.length) return mail[0] as { text: string; html: string };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no confirmation mail for order ${orderId}`);
}

describe('variation choices by term name', () => {
  it('the cart shows "5.8 dBi" and "EU868" in English and the German term name in German', async () => {
    const en = await cartWithAlpha('en-US');
    const enLine = (await en.ok(CART_LINES)).cart.contents.nodes[0];
    expect(enLine.variation.attributes).toEqual([
      { name: 'pa_frequency-band', label: 'Frequency band', value: 'eu868', valueName: 'EU868' },
      { name: 'pa_gain', label: 'Antenna gain', value: '5-8-dbi', valueName: '5.8 dBi' },
    ]);
    expect(enLine.variation.node.name).toBe('Alpha Indoor Gateway - EU868, 5.8 dBi');

    const de = await cartWithAlpha('de-DE');
    const deLine = (await de.ok(CART_LINES)).cart.contents.nodes[0];
    expect(deLine.variation.attributes).toEqual([
      { name: 'pa_frequency-band', label: 'Frequenzband', value: 'eu868', valueName: 'EU868' },
      { name: 'pa_gain', label: 'Antennengewinn', value: '5-8-dbi', valueName: '5,8 dBi' },
    ]);
    expect(deLine.variation.node.name).toBe('Alpha Indoor Gateway - EU868, 5,8 dBi');
  });

  it("the admin names a product's variations and its low-stock variations by term name", async () => {
    const alpha = (await t.ok('adminProduct', { id: await productId(t, 'alpha-gateway') })).adminProduct;
    expect(alpha.variations.map((v: { sku: string; label: string }) => [v.sku, v.label])).toEqual([
      ['FX-ALPHA-EU', 'EU868, 5.8 dBi'],
      ['FX-ALPHA-US', 'US915, 3 dBi'],
      ['FX-ALPHA-AS', 'AS923, 5.8 dBi'],
    ]);
    // The slugs stay what the variation form sends back.
    expect(alpha.variations[0].attributes).toEqual([
      { name: 'pa_frequency-band', value: 'eu868' },
      { name: 'pa_gain', value: '5-8-dbi' },
    ]);
    const lowStock = (await t.ok('adminDashboard')).adminDashboard.lowStock;
    expect(lowStock.find((l: { sku: string }) => l.sku === 'FX-ALPHA-AS').name).toBe(
      'Alpha Indoor Gateway – AS923, 5.8 dBi',
    );
  });

  it('a German order keeps the names it was placed with on its line, mail, invoice and admin screen, through a later rename', async () => {
    const de = await cartWithAlpha('de-DE');
    const email = 'gain-de@example.com';
    const placed = (await de.ok(operation('Checkout'), { paymentMethod: 'cod', billing: { ...BILLING, email } }))
      .checkout.order;
    const shown = [
      { name: 'pa_frequency-band', label: 'Frequenzband', value: 'eu868', valueName: 'EU868' },
      { name: 'pa_gain', label: 'Antennengewinn', value: '5-8-dbi', valueName: '5,8 dBi' },
    ];
    expect(placed.lineItems.nodes[0].attributes).toEqual(shown.map((a) => expect.objectContaining(a)));

    const [item] = await t.engine.orders.items(placed.databaseId);
    expect(item).toMatchObject({
      name: 'Alpha Indoor Gateway - EU868, 5,8 dBi',
      attributes: { 'pa_frequency-band': 'eu868', pa_gain: '5-8-dbi' },
      attributeNames: [
        { key: 'pa_frequency-band', name: 'Frequenzband', value: 'EU868' },
        { key: 'pa_gain', name: 'Antennengewinn', value: '5,8 dBi' },
      ],
    });

    const mail = await confirmationMail(email, placed.databaseId);
    expect(mail.text).toContain('Alpha Indoor Gateway - EU868, 5,8 dBi');
    expect(mail.html).toContain('Alpha Indoor Gateway - EU868, 5,8 dBi');
    expect(`${mail.text}${mail.html}`).not.toMatch(/5-8-dbi|eu868/);

    const invoice = (await t.engine.invoices.invoiceOf(placed.databaseId))!;
    expect(invoice.document.lines.filter((l) => l.kind === 'item').map((l) => l.description)).toEqual([
      'Alpha Indoor Gateway - EU868, 5,8 dBi',
    ]);

    const admin = (await t.ok('adminOrder', { id: placed.databaseId })).adminOrder;
    expect(admin.items[0].attributes).toEqual([
      { name: 'Frequenzband', value: 'EU868' },
      { name: 'Antennengewinn', value: '5,8 dBi' },
    ]);

    // The shop renames the term: the order, read later and in another language, still shows what was bought.
    await t.engine.database.db.transaction(async (tx) => {
      await tx.execute(
        sql`update catalog_terms set name = '5.8 dBi omni', translations = '{"de_DE":{"name":"5,8 dBi Rundstrahl"}}'::jsonb where taxonomy = 'pa_gain' and slug = '5-8-dbi'`,
      );
      await bumpCounter(tx, 'catalog_version');
    });
    t.engine.catalog.invalidate();
    const renamedCart = (await (await cartWithAlpha('de-DE')).ok(CART_LINES)).cart.contents.nodes[0];
    expect(renamedCart.variation.attributes[1].valueName).toBe('5,8 dBi Rundstrahl');

    const reread = new Shopper(t, { 'accept-language': 'en-US' });
    const order = (await reread.ok(operation('getOrder'), { id: placed.orderKey, idType: 'ORDER_KEY' })).order;
    expect(order.lineItems.nodes[0].attributes).toEqual(shown.map((a) => expect.objectContaining(a)));
    expect((await t.ok('adminOrder', { id: placed.databaseId })).adminOrder.items[0].attributes).toEqual([
      { name: 'Frequenzband', value: 'EU868' },
      { name: 'Antennengewinn', value: '5,8 dBi' },
    ]);
  });

  it('an English order records the English names', async () => {
    const en = await cartWithAlpha('en-US');
    const placed = (
      await en.ok(operation('Checkout'), {
        paymentMethod: 'cod',
        billing: { ...BILLING, email: 'gain-en@example.com' },
      })
    ).checkout.order;
    expect(
      placed.lineItems.nodes[0].attributes.map(
        (a: { label: string; valueName: string }) => `${a.label}: ${a.valueName}`,
      ),
    ).toEqual(['Frequency band: EU868', 'Antenna gain: 5.8 dBi omni']);
    const mail = await confirmationMail('gain-en@example.com', placed.databaseId);
    expect(mail.text).toContain('Alpha Indoor Gateway - EU868, 5.8 dBi omni');
  });

  it('a line ordered before the names were recorded is named from the catalog, never by its slugs', async () => {
    const en = await cartWithAlpha('en-US');
    const placed = (
      await en.ok(operation('Checkout'), {
        paymentMethod: 'cod',
        billing: { ...BILLING, email: 'gain-old@example.com' },
      })
    ).checkout.order;
    await t.engine.database.db.execute(
      sql`update order_items set attribute_names = '[]'::jsonb where order_id = ${placed.databaseId}`,
    );
    // The order page in the reader's language; the admin screen in the order's (English).
    const de = new Shopper(t, { 'accept-language': 'de-DE' });
    const order = (await de.ok(operation('getOrder'), { id: placed.orderKey, idType: 'ORDER_KEY' })).order;
    expect(
      order.lineItems.nodes[0].attributes.map(
        (a: { label: string; valueName: string }) => `${a.label}: ${a.valueName}`,
      ),
    ).toEqual(['Frequenzband: EU868', 'Antennengewinn: 5,8 dBi Rundstrahl']);
    expect((await t.ok('adminOrder', { id: placed.databaseId })).adminOrder.items[0].attributes).toEqual([
      { name: 'Frequency band', value: 'EU868' },
      { name: 'Antenna gain', value: '5.8 dBi omni' },
    ]);
  });
});
