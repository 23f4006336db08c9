// Every mail a shopper gets is written in their language: an account's mails (address confirmation,
// password reset, linking a login provider, the notice that its address changed) in the language the
// account last used the shop in, an order's mails (confirmation, completion, invoice) in the language it
// was placed in, the newsletter's mails in the language of the form the address was entered in. Each mail
// is checked for its translated sentences and for the absence of the English ones it used to carry.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orderCompleted, orderInvoice, type OutboxMessage } from '../../src/server/mail/index.ts';
import { startOAuthProvider, type OAuthProviderStandIn } from '../fixtures/oauth-provider.ts';
import { headersOf, newCustomer, op, register } from './accounts-helpers.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, productId, setStock, Shopper } from './shop-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

const GERMAN = { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' };
const BRAZILIAN = { 'accept-language': 'pt-BR,pt;q=0.9' };

/** Sentences of the English mails: none may be left in a German or Portuguese one. */
const ENGLISH = [
  /\bHello\b/,
  /\bHi\b/,
  /If the button does not work/,
  /The link works/,
  /If you did not/,
  /You receive this e-mail/,
  /\b(Confirm|Reset|Link) your\b/,
  /Thank you for your order/,
  /\b(Payment method|Billing address|Shipping address|View your order)\b/,
  /Meshfront newsletter/,
];

function expectNoEnglish(mail: Pick<OutboxMessage, 'subject' | 'text' | 'html'>) {
  for (const part of [mail.subject, mail.text ?? '', mail.html ?? '']) {
    for (const phrase of ENGLISH) expect(part, `${mail.subject}: ${phrase}`).not.toMatch(phrase);
  }
}

let t: TestEngine;
let provider: OAuthProviderStandIn;
let profile: Record<string, unknown> = {};
let ipCounter = 0;
const ip = () => `198.51.100.${++ipCounter}`;
const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.test`;

beforeAll(async () => {
  provider = await startOAuthProvider(() => profile);
  process.env.TRUST_PROXY = '1';
  process.env.PASSWORD_SCRYPT_LOG2N = '12';
  process.env.PUBLIC_SITE_URL = 'https://shop.meshfront.test';
  Object.assign(process.env, provider.env);
  t = await startTestEngine();
});
afterAll(async () => {
  await t?.close();
  await provider?.stop();
});

/** The newest mail to `to` whose subject matches, waiting for the queue to send it. */
async function mailTo(to: string, subject: RegExp): Promise<OutboxMessage> {
  for (let i = 0; i < 100; i++) {
    const [mail] = await t.engine.accounts.mailer().readOutbox({ to, subject });
    if (mail) return mail;
    t.engine.mail.wake();
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

describe('a German account', () => {
  it('gets its address confirmation and its password reset in German', async () => {
    const c = await register(t, newCustomer('konto'), { ...GERMAN, ...headersOf({}, ip()) });

    const confirm = await mailTo(c.email, /^Bestätige deine E-Mail-Adresse bei Meshfront$/);
    expect(confirm.text).toContain('Hallo Ada,');
    expect(confirm.text).toContain('Bitte bestätige, dass dies die E-Mail-Adresse deines Kontos bei Meshfront ist.');
    expect(confirm.html).toContain('E-Mail-Adresse bestätigen');
    expect(confirm.html).toContain('<html lang="de-DE">');
    // Its link opens the German page.
    expect(confirm.links).toContainEqual(
      expect.stringMatching(/^https:\/\/shop\.meshfront\.test\/de\/my-account\/verify-email\?key=/),
    );
    expectNoEnglish(confirm);

    const asked = await t.gql(op('ResetPasswordEmail'), { username: c.username }, headersOf({}, ip()));
    expect(asked.body.errors).toBeUndefined();
    const reset = await mailTo(c.email, /^Dein Passwort bei Meshfront zurücksetzen$/);
    expect(reset.text).toMatch(
      /Der Link funktioniert einmal und läuft in (einer Stunde|\d+ (Minuten|Stunden|Tagen)) ab\./,
    );
    expect(reset.html).toContain('Neues Passwort wählen');
    expect(reset.links).toContainEqual(
      expect.stringMatching(/^https:\/\/shop\.meshfront\.test\/de\/my-account\/lost-password\?key=/),
    );
    expectNoEnglish(reset);
  });

  it('is told in German that its address changed, at the previous address', async () => {
    const c = await register(t, newCustomer('umzug'), { ...GERMAN, ...headersOf({}, ip()) });
    const next = unique('neu');
    const r = await t.gql(
      op('UpdateCustomer'),
      { input: { email: next, currentPassword: c.password } },
      { ...GERMAN, ...headersOf({ authToken: c.authToken, sessionToken: c.sessionToken }) },
    );
    expect(r.body.errors).toBeUndefined();
    const notice = await mailTo(c.email, /^Deine E-Mail-Adresse bei Meshfront wurde geändert$/);
    expect(notice.text).toContain('Die E-Mail-Adresse deines Kontos bei Meshfront wurde in ');
    expect(notice.text).toMatch(/Der Link funktioniert (\d+ Tage|einen Tag) lang\./);
    expect(notice.html).toContain('Das war ich nicht');
    expect(notice.links).toContainEqual(
      expect.stringMatching(/^https:\/\/shop\.meshfront\.test\/de\/my-account\/email-change-report\?token=/),
    );
    expect(notice.text).not.toContain(next);
    expectNoEnglish(notice);
  });

  it('gets the link that joins a provider login to it in German, naming the login form’s “Passwort vergessen?”', async () => {
    const c = await register(t, newCustomer('verknuepft'), { ...GERMAN, ...headersOf({}, ip()) });
    // A guest browser signs in with Google for that address and asks for the link by e-mail.
    const cart = await t.gql(op('getCart'), {});
    const sessionToken = cart.body.data.customer.sessionToken as string;
    const client = (cart.body.data.loginClients as { provider: string; authorizationUrl: string }[]).find(
      (l) => l.provider === 'GOOGLE',
    )!;
    profile = { sub: `google-${c.email}`, email: c.email, email_verified: true };
    const back = new URL((await fetch(client.authorizationUrl, { redirect: 'manual' })).headers.get('location')!);
    const browserIp = ip();
    const signedIn = await t.gql(
      op('loginWithProvider'),
      { provider: 'GOOGLE', code: back.searchParams.get('code'), state: back.searchParams.get('state') },
      headersOf({ sessionToken }, browserIp),
    );
    const { token } = signedIn.body.data.login.accountLink;
    // The browser speaks English: the mail goes to the account, in the account's language.
    const sent = await t.gql(op('sendAccountLinkEmail'), { token }, headersOf({ sessionToken }, browserIp));
    expect(sent.body.errors).toBeUndefined();
    const link = await mailTo(c.email, /^Verknüpfe deine Google-Anmeldung mit deinem Konto bei Meshfront$/);
    expect(link.text).toContain('Du hast dich mit Google und dieser E-Mail-Adresse angemeldet');
    expect(link.text).toContain('oder wählst mit „Passwort vergessen?“ ein neues Passwort.');
    expect(link.html).toContain('Google verknüpfen und anmelden');
    expect(link.links).toContainEqual(
      expect.stringMatching(/^https:\/\/shop\.meshfront\.test\/de\/my-account\/link-account\?key=/),
    );
    expectNoEnglish(link);
  });
});

describe('a Brazilian order', () => {
  it('is confirmed in Portuguese', async () => {
    const antenna = await productId(t, 'omni-antenna');
    await setStock(t, 'omni-antenna', 10_000);
    const s = new Shopper(t, BRAZILIAN);
    await s.ok(operation('addToCart'), { productId: antenna, quantity: 1 });
    const email = unique('pedido');
    const billing = {
      ...BILLING,
      email,
      address1: 'Avenida Paulista, 1000',
      city: 'São Paulo',
      state: 'SP',
      postcode: '01310-100',
      country: 'BR',
    };
    const order = (await s.ok(operation('Checkout'), { paymentMethod: 'cod', billing })).checkout.order;
    const mail = await mailTo(email, new RegExp(`^Recebemos seu pedido nº ${order.databaseId} na Meshfront$`));
    expect(mail.text).toContain(`Obrigado pelo seu pedido. Aqui estão os detalhes do pedido #${order.databaseId} de`);
    expect(mail.text).toContain('Forma de pagamento: Pagamento na entrega');
    expect(mail.text).toContain('O pagamento será feito na entrega.');
    expect(mail.text).toContain('  Brasil');
    expect(mail.html).toContain('Ver seu pedido');
    expect(mail.html).toContain('<html lang="pt-BR">');
    expect(mail.links).toContainEqual(
      expect.stringContaining(`/pt-br/checkout/order-received/${order.databaseId}/?key=`),
    );
    expectNoEnglish(mail);
  });
});

describe('the newsletter', () => {
  it('asks a German sign-up to confirm in German and welcomes them in German', async () => {
    const email = unique('leser');
    const { mailed } = await t.engine.newsletter().newsletter.subscribe(email, 'de_DE', {
      ip: ip(),
      baseUrl: 'https://shop.meshfront.test',
    });
    expect(mailed).toBe(true);
    const ask = await mailTo(email, /^Bestätige deine Anmeldung zum Newsletter von Meshfront$/);
    expect(ask.html).toContain('Anmeldung bestätigen');
    expect(ask.text).toContain('Falls du dich nicht angemeldet hast, ignoriere diese E-Mail');
    expectNoEnglish(ask);

    const confirmLink = ask.links.find((l) => l.includes('/api/newsletter/confirm?token='))!;
    const token = new URL(confirmLink).searchParams.get('token')!;
    expect(
      await t.engine.newsletter().newsletter.confirm(token, { ip: ip(), baseUrl: 'https://shop.meshfront.test' }),
    ).toEqual({
      ok: true,
      locale: 'de_DE',
    });
    const welcome = await mailTo(email, /^Willkommen beim Newsletter von Meshfront$/);
    expect(welcome.text).toContain('Jederzeit abmelden: https://shop.meshfront.test/api/newsletter/unsubscribe?token=');
    expect(welcome.html).toMatch(/Doch kein Interesse\? Du kannst dich jederzeit <a href="[^"]+"[^>]*>abmelden<\/a>\./);
    expectNoEnglish(welcome);
  });
});

describe('the order mails sent after the confirmation', () => {
  it('the completion with its tracking number and the invoice of a later payment are in the order’s language', () => {
    const completed = orderCompleted({
      orderNumber: '1042',
      customerName: 'Ada',
      lineItems: [{ name: 'Omni Antenna 5 dBi', quantity: 1 }],
      trackingNumber: '00340434161234567890',
      trackingCarrier: 'DHL',
      trackingUrl: 'https://www.dhl.de/track?id=00340434161234567890',
      orderUrl: 'https://shop.meshfront.test/checkout/order-received/1042/?key=k',
      locale: 'de_DE',
    });
    expect(completed.subject).toBe('Deine Bestellung #1042 bei Meshfront ist abgeschlossen');
    expect(completed.text).toContain('Deine Bestellung #1042 ist abgeschlossen und auf dem Weg zu dir.');
    expect(completed.text).toContain('Sendungsnummer: 00340434161234567890 (DHL)');
    expect(completed.html).toContain('Sendung verfolgen');
    expect(completed.html).toContain('Bestellung ansehen');
    expectNoEnglish(completed);
    expect(completed.text).not.toMatch(/Tracking number|Track it|is complete/);

    const invoice = orderInvoice({
      invoiceNumber: 'RE-2026-0007',
      orderNumber: '1043',
      orderUrl: 'https://shop.meshfront.test/checkout/order-received/1043/?key=k',
      locale: 'pt_BR',
    });
    expect(invoice.subject).toBe('Sua fatura RE-2026-0007 do pedido #1043');
    expect(invoice.text).toContain('Obrigado pelo seu pagamento.');
    expect(invoice.text).toContain('Ver seu pedido: https://shop.meshfront.test/checkout/order-received/1043/?key=k');
    expect(invoice.html).toContain('Se o botão não funcionar');
    expectNoEnglish(invoice);
  });
});
