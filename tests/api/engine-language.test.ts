// The engine answers in the shopper's language: the storefront sends its page's locale as Accept-Language
// and gets payment and shipping names, refusals (coupon, stock, checkout validation) and prices written in
// it — through Yoga and through the catalog fast path alike — while every error keeps its machine-readable
// code. An order remembers the language it was placed in, and its confirmation mail is written in it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/graphql/client.ts';
import { CatalogFastPath } from '../../src/server/http/fast-path.ts';
import { shippingLabel } from '../../src/server/shipping/labels.ts';
import { startSmtpServer, type SmtpServer } from '../fixtures/smtp-server.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, CART, operation, productId, setStock, Shopper } from './shop-helpers.ts';

const GERMAN = { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' };
const BRAZILIAN = { 'accept-language': 'pt-BR' };
const UNKNOWN = { 'accept-language': 'tlh-QO' };

const GATEWAYS = `query { paymentGateways { nodes { id title description } } }`;
const ADD = operation('addToCart');
const APPLY_COUPON = operation('applyCoupon');
const CHECKOUT = operation('Checkout');
const GET_PRODUCTS = operation('getProducts');

let t: TestEngine;
let smtp: SmtpServer;
let cable: number;
let antenna: number;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // The engine reads its mail settings from the environment (each test file runs in its own process).
  Object.assign(process.env, { SMTP_URL: smtp.url(), MAIL_POLL_INTERVAL_MS: '60000' });
  t = await startTestEngine({ env: { SHIPPING_LOCAL_PICKUP: 'true' } });
  cable = await productId(t, 'n-type-cable');
  antenna = await productId(t, 'omni-antenna');
  await setStock(t, 'n-type-cable', 10_000);
  await setStock(t, 'omni-antenna', 10_000);
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
}, ENGINE_START_TIMEOUT_MS);

const codOf = (r: { body: { data?: any } }) =>
  (r.body.data.paymentGateways.nodes as { id: string; title: string; description: string }[]).find(
    (g) => g.id === 'cod',
  );

describe('payment gateways', () => {
  it('are named in the language the request asks for, English when the shop does not speak it', async () => {
    const de = await t.gql(GATEWAYS, {}, GERMAN);
    expect(codOf(de)).toMatchObject({
      title: 'Nachnahme',
      description: 'Du bezahlst bar, wenn deine Bestellung geliefert wird.',
    });
    expect(codOf(await t.gql(GATEWAYS, {}, BRAZILIAN))).toMatchObject({
      title: 'Pagamento na entrega',
      description: 'Pague em dinheiro na entrega.',
    });
    expect(codOf(await t.gql(GATEWAYS, {}, UNKNOWN))).toMatchObject({
      title: 'Cash on delivery',
      description: 'Pay with cash upon delivery.',
    });
    expect(codOf(await t.gql(GATEWAYS))?.title).toBe('Cash on delivery');
    // Caches keep one answer per language.
    expect(de.headers.get('vary')?.toLowerCase()).toContain('accept-language');
  });
});

describe('shipping methods', () => {
  it('have the shop’s default labels translated', async () => {
    const labels = async (headers: Record<string, string>) => {
      const s = new Shopper(t, headers);
      await s.ok(ADD, { productId: cable, quantity: 1 });
      const rates = (await s.ok(CART)).cart.availableShippingMethods[0].rates as { methodId: string; label: string }[];
      return Object.fromEntries(rates.map((r) => [r.methodId, r.label]));
    };
    expect(await labels(GERMAN)).toMatchObject({
      flat_rate: 'Versandkostenpauschale',
      local_pickup: 'Abholung vor Ort',
    });
    expect(await labels(BRAZILIAN)).toMatchObject({ flat_rate: 'Taxa fixa', local_pickup: 'Retirada no local' });
    expect(await labels(UNKNOWN)).toMatchObject({ flat_rate: 'Flat rate', local_pickup: 'Local pickup' });
  });

  it('keep a label the operator typed as it is', () => {
    expect(shippingLabel('Free shipping', 'de_DE')).toBe('Kostenloser Versand');
    expect(shippingLabel('DHL Paket (1–2 Werktage)', 'de_DE')).toBe('DHL Paket (1–2 Werktage)');
    expect(shippingLabel('DHL Paket (1–2 Werktage)', 'fr_FR')).toBe('DHL Paket (1–2 Werktage)');
  });
});

describe('refusals', () => {
  it('a coupon that does not exist: the message in the shopper’s language, the code unchanged', async () => {
    const refusal = async (headers: Record<string, string>) => {
      const s = new Shopper(t, headers);
      await s.ok(ADD, { productId: cable, quantity: 1 });
      const r = await s.gql(APPLY_COUPON, { code: 'nope' });
      return r.body.errors![0]!;
    };
    const de = await refusal(GERMAN);
    expect(de.message).toBe('Der Gutschein „nope“ kann nicht angewendet werden, weil es ihn nicht gibt.');
    expect(de.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await refusal(BRAZILIAN)).message).toBe('O cupom “nope” não pode ser aplicado porque não existe.');
    expect((await refusal(UNKNOWN)).message).toBe(
      'Coupon &quot;nope&quot; cannot be applied because it does not exist.',
    );
  });

  it('more than the stock holds: in the cart and at checkout', async () => {
    await setStock(t, 'omni-antenna', 3);
    try {
      const de = new Shopper(t, GERMAN);
      const tooMany = await de.gql(ADD, { productId: antenna, quantity: 5 });
      expect(tooMany.body.errors?.[0]?.message).toBe(
        'Diese Menge von „Omni Antenna 5 dBi“ kann nicht in den Warenkorb gelegt werden, weil nicht genug auf Lager ist (3 verfügbar).',
      );
      const pt = new Shopper(t, BRAZILIAN);
      expect((await pt.gql(ADD, { productId: antenna, quantity: 5 })).body.errors?.[0]?.message).toBe(
        'Não é possível adicionar essa quantidade de “Omni Antenna 5 dBi” ao carrinho porque não há estoque suficiente (3 disponíveis).',
      );
      // The stock drops after the cart was filled: the checkout's own refusal.
      await de.ok(ADD, { productId: antenna, quantity: 2 });
      await pt.ok(ADD, { productId: antenna, quantity: 2 });
      await setStock(t, 'omni-antenna', 1);
      const atCheckout = await de.gql(CHECKOUT, { paymentMethod: 'cod', billing: BILLING });
      expect(atCheckout.body.errors?.[0]?.message).toBe(
        'Leider haben wir nicht genug „Omni Antenna 5 dBi“ auf Lager, um deine Bestellung auszuführen (1 verfügbar). Bitte entschuldige die Unannehmlichkeiten.',
      );
      expect(atCheckout.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect((await pt.gql(CHECKOUT, { paymentMethod: 'cod', billing: BILLING })).body.errors?.[0]?.message).toBe(
        'Desculpe, não temos estoque suficiente de “Omni Antenna 5 dBi” para atender ao seu pedido (1 disponíveis). Pedimos desculpas pelo transtorno.',
      );
    } finally {
      await setStock(t, 'omni-antenna', 10_000);
    }
  });

  it('checkout validation: every problem, with the fields named as the checkout form names them', async () => {
    const problems = async (headers: Record<string, string>) => {
      const s = new Shopper(t, headers);
      await s.ok(ADD, { productId: cable, quantity: 1 });
      const r = await s.gql(CHECKOUT, {
        paymentMethod: 'cod',
        billing: { ...BILLING, firstName: '', postcode: '', email: 'not-an-address' },
      });
      return r.body.errors![0]!;
    };
    const de = await problems(GERMAN);
    expect(de.message).toBe(
      'Rechnungsadresse: Vorname ist ein Pflichtfeld. Rechnungsadresse: Postleitzahl ist ein Pflichtfeld. ' +
        'Rechnungsadresse: E-Mail-Adresse ist keine gültige E-Mail-Adresse.',
    );
    expect(de.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await problems(BRAZILIAN)).message).toBe(
      'Cobrança: Nome é um campo obrigatório. Cobrança: CEP é um campo obrigatório. ' +
        'Cobrança: Endereço de e-mail não é um endereço de e-mail válido.',
    );
    expect((await problems(UNKNOWN)).message).toBe(
      'Billing First name is a required field. Billing Postcode / ZIP is a required field. ' +
        'Billing Email address is not a valid email address.',
    );
  });
});

describe('prices', () => {
  it('are written as the language writes euros', async () => {
    const priceOf = async (headers: Record<string, string>) => {
      const r = await t.gql(
        `query ($id: ID!) { product(id: $id, idType: DATABASE_ID) { ... on SimpleProduct { price } } }`,
        { id: String(cable) },
        headers,
      );
      return r.body.data.product.price as string;
    };
    expect(await priceOf(UNKNOWN)).toMatch(/^€\d+\.\d\d$/);
    expect(await priceOf(GERMAN)).toMatch(/^\d+,\d\d\u00a0€$/);
    expect(await priceOf(BRAZILIAN)).toMatch(/^€\u00a0\d+,\d\d$/);
  });
});

describe('the catalog fast path', () => {
  it('keeps one stored answer per language: two requests differing only in Accept-Language each get their own', async () => {
    const fast = new CatalogFastPath(t.yoga, async () => t.engine);
    const post = (headers: Record<string, string>) =>
      fast.handleRequest(
        new Request('http://meshfront.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
          body: JSON.stringify({ query: GET_PRODUCTS, variables: { first: 3 } }),
        }),
      );
    // A guest token with each request, as the storefront sends: such answers are stored.
    const token = (await t.gql(`query { customer { sessionToken } }`)).body.data.customer.sessionToken as string;
    const session = { 'woocommerce-session': `Session ${token}` };
    const prices = async (headers: Record<string, string>) => {
      const r = await post({ ...session, ...headers });
      expect(r.status).toBe(200);
      expect(r.headers.get('vary')?.toLowerCase()).toContain('accept-language');
      const body = (await r.json()) as { data: { products: { nodes: { price?: string | null }[] } } };
      return body.data.products.nodes.map((n) => n.price).filter((p): p is string => !!p);
    };
    const first = { de: await prices(GERMAN), en: await prices({ 'accept-language': 'en-US' }) };
    expect(first.de.length).toBeGreaterThan(0);
    expect(first.de.every((p) => p.endsWith('\u00a0€'))).toBe(true);
    expect(first.en.every((p) => p.startsWith('€'))).toBe(true);
    // Now both are stored: each language gets its own stored bytes back.
    const hits = fast.stats.hits;
    expect(await prices({ 'accept-language': 'de' })).toEqual(first.de);
    expect(await prices({ 'accept-language': 'en-US' })).toEqual(first.en);
    expect(await prices(UNKNOWN)).toEqual(first.en);
    expect(fast.stats.hits).toBe(hits + 3);
  });
});

describe('the storefront client', () => {
  const viaEngine = (language?: () => string | null) =>
    createClient({
      endpoint: 'http://meshfront.test/graphql',
      retries: 0,
      language,
      fetch: ((url: RequestInfo | URL, init?: RequestInit) =>
        t.yoga.fetch(new Request(String(url), init))) as typeof fetch,
    });

  it('sends the page’s language and gets the engine’s texts in it', async () => {
    const de = await viaEngine(() => 'de-DE').request('getCart');
    expect(de.paymentGateways?.nodes?.find((g) => g?.id === 'cod')?.title).toBe('Nachnahme');
    // In the browser the page's <html lang> (the layout writes its locale's tag there) is the default.
    const page = globalThis as { document?: unknown };
    page.document = { documentElement: { lang: 'pt-BR' } };
    try {
      const pt = await viaEngine().request('getCart');
      expect(pt.paymentGateways?.nodes?.find((g) => g?.id === 'cod')?.title).toBe('Pagamento na entrega');
    } finally {
      delete page.document;
    }
    const en = await viaEngine().request('getCart');
    expect(en.paymentGateways?.nodes?.find((g) => g?.id === 'cod')?.title).toBe('Cash on delivery');
  });
});

describe('a German order', () => {
  it('records its language, and its confirmation mail is German', async () => {
    const s = new Shopper(t, GERMAN);
    await s.ok(ADD, { productId: antenna, quantity: 1 });
    const email = `bestellung-${Date.now()}@example.com`;
    const order = (await s.ok(CHECKOUT, { paymentMethod: 'cod', billing: { ...BILLING, email } })).checkout.order;
    const r = await t.engine.database.db.execute(
      sql`select locale, payment_method_title from orders where id = ${order.databaseId}`,
    );
    const row = ((r as { rows?: unknown[] }).rows ?? (r as unknown as unknown[]))[0] as Record<string, string>;
    expect(row).toEqual({ locale: 'de_DE', payment_method_title: 'Nachnahme' });

    t.engine.mail.wake();
    let mail: (typeof smtp.messages)[number] | undefined;
    for (let i = 0; i < 200 && !mail; i++) {
      mail = smtp.messages.find((m) => m.envelope.to.includes(email));
      if (!mail) await new Promise((done) => setTimeout(done, 50));
    }
    expect(mail).toBeDefined();
    expect(mail!.subject).toBe(`Deine Bestellung #${order.databaseId} bei Meshfront ist eingegangen`);
    const text = mail!.text!;
    expect(text).toContain(`Hallo ${BILLING.firstName},`);
    expect(text).toContain(
      `Vielen Dank für deine Bestellung. Hier sind die Details der Bestellung #${order.databaseId} vom`,
    );
    expect(text).toMatch(/^Zwischensumme: \d+,\d\d\u00a0€$/m);
    expect(text).toMatch(/^Versand \(Kostenloser Versand|Versand \(Versandkostenpauschale\)/m);
    expect(text).toContain('Zahlungsart: Nachnahme');
    expect(text).toContain('Die Zahlung erfolgt bei Lieferung.');
    expect(text).toContain('Rechnungsadresse:');
    expect(text).toContain('  Deutschland');
    expect(text).not.toMatch(/Thank you|Subtotal|Payment method/);
    expect(mail!.html).toContain('<html lang="de-DE">');
    expect(mail!.html).toContain('Bestellung ansehen');
  });
});
