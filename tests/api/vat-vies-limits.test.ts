// A shopper cannot make the engine ask the EU's VIES service without bound by typing VAT IDs: each session
// and each client address may cause a few questions an hour (VIES_CHECKS_PER_SESSION_PER_HOUR,
// VIES_CHECKS_PER_IP_PER_HOUR), then the refusal says so in the shopper's language (its code); a VAT ID
// VIES confirmed is answered from memory for VIES_RECHECK_HOURS without asking again.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VAT_ID_ERROR_KEYS } from '../../src/lib/vat-id.ts';
import { startViesServer, type ViesServer } from '../fixtures/vies-server.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, productId, setStock, Shopper } from './shop-helpers.ts';

let t: TestEngine;
let vies: ViesServer;
let cable: number;

const ADD = operation('addToCart');
const VAT_ID = operation('UpdateVatId');
const CHECKOUT = operation('Checkout');

/** Well-formed French VAT IDs (their check digits fit) that VIES does not know: each one is asked about. */
const UNKNOWN_IDS = ['FR86404833049', 'FR89404833050', 'FR92404833051', 'FR95404833052', 'FR01404833053'];

beforeAll(async () => {
  vies = await startViesServer();
  // The engine reads the VAT and client-address settings from the environment.
  Object.assign(process.env, {
    VIES_URL: vies.url,
    VIES_TIMEOUT_MS: '800',
    VIES_CHECKS_PER_SESSION_PER_HOUR: '3',
    VIES_CHECKS_PER_IP_PER_HOUR: '5',
    TRUST_PROXY: 'true',
  });
  t = await startTestEngine();
  cable = await productId(t, 'n-type-cable');
  await setStock(t, 'n-type-cable', 100);
}, 300_000);

afterAll(async () => {
  await t?.close();
  await vies?.stop();
});

const from = (ip: string) => new Shopper(t, { 'x-forwarded-for': ip });

async function typeVatId(s: Shopper, vatId: string) {
  const r = await s.gql(VAT_ID, { billingCountry: 'FR', vatId });
  return r.body.errors?.[0] ?? null;
}

describe('VIES questions a shopper can cause', () => {
  it('a session may cause three an hour; the fourth is refused with a clear, translated error and VIES is not asked', async () => {
    const s = from('198.51.100.10');
    for (const id of UNKNOWN_IDS.slice(0, 3))
      expect(await typeVatId(s, id)).toMatchObject({ extensions: { code: 'VAT_ID_REJECTED' } });
    const asked = vies.requests.length;
    const refused = await typeVatId(s, UNKNOWN_IDS[3]!);
    expect(refused).toMatchObject({ extensions: { code: 'VAT_ID_TOO_MANY_CHECKS' } });
    expect(refused?.message).toMatch(
      /^Too many VAT IDs were checked from here\. Please try again in \d+ minutes?, or order without a VAT ID\.$/,
    );
    expect(vies.requests.length).toBe(asked);
    // The storefront shows it in the shopper's language.
    const de = JSON.parse(readFileSync(new URL('../../locales/de_DE.json', import.meta.url), 'utf8'));
    expect(de[VAT_ID_ERROR_KEYS.VAT_ID_TOO_MANY_CHECKS!]).toMatch(/zu viele USt-IdNrn/);
    // The checkout refuses the same way (the cart and the order are not touched).
    await s.ok(ADD, { productId: cable, quantity: 1 });
    const order = await s.gql(CHECKOUT, {
      paymentMethod: 'cod',
      billing: { ...BILLING, country: 'FR', postcode: '75002', city: 'Paris', vatId: UNKNOWN_IDS[4] },
    });
    expect(order.body.errors?.[0]?.extensions?.code).toBe('VAT_ID_TOO_MANY_CHECKS');
    expect(vies.requests.length).toBe(asked);
  });

  it('new sessions from one client address do not lift the bound: five questions an hour per address', async () => {
    const ip = '198.51.100.20';
    for (const id of UNKNOWN_IDS.slice(0, 3))
      expect(await typeVatId(from(ip), id)).toMatchObject({
        extensions: { code: 'VAT_ID_REJECTED' },
      });
    for (const id of UNKNOWN_IDS.slice(3, 5))
      expect(await typeVatId(from(ip), id)).toMatchObject({
        extensions: { code: 'VAT_ID_REJECTED' },
      });
    expect(await typeVatId(from(ip), UNKNOWN_IDS[0]!)).toMatchObject({
      extensions: { code: 'VAT_ID_TOO_MANY_CHECKS' },
    });
    // Another address is not affected.
    expect(await typeVatId(from('198.51.100.21'), UNKNOWN_IDS[0]!)).toMatchObject({
      extensions: { code: 'VAT_ID_REJECTED' },
    });
  });

  it('a VAT ID VIES confirmed is answered from memory: no question, and none counted', async () => {
    const first = from('198.51.100.30');
    expect(await typeVatId(first, 'FR40303265045')).toBeNull();
    const asked = vies.requests.length;
    // Other shoppers typing the same number, more often than any bound allows.
    for (let i = 0; i < 6; i++) {
      const s = from('198.51.100.31');
      const r = await s.ok(VAT_ID, { billingCountry: 'FR', vatId: 'FR 40 303 265 045' });
      expect(r.updateCustomer.customer).toMatchObject({ isVatExempt: true, billing: { vatId: 'FR40303265045' } });
    }
    expect(vies.requests.length).toBe(asked);
  });
});
