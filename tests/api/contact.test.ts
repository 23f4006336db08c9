// POST /api/contact-form/create through its handler with real Request objects, on a real database, the
// file outbox and the local reCAPTCHA stand-in: validation per field, body limits, bot check, per-IP
// limit, storage, the mail to support, and no internals in any error answer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBotCheckSettings } from '../../src/server/bot-check/index.ts';
import { loadConfig } from '../../src/server/config.ts';
import {
  ContactService,
  handleContactConfig,
  handleContactRequest,
  readContactSettings,
  type ContactHandlerDeps,
} from '../../src/server/contact/index.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import {
  createMailer,
  isValidEmailAddress,
  MailQueue,
  readMailSettings,
  readOutbox,
  type Mailer,
} from '../../src/server/mail/index.ts';
import { RateLimiter, readClientAddressSettings } from '../../src/server/rate-limit/index.ts';
import { isValidEmail as clientIsValidEmail } from '../../src/islands/contact/email.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/db.ts';
import { startRecaptchaServer, type RecaptchaServer } from '../fixtures/recaptcha-server.ts';

const SUPPORT = 'help@meshfront.test';
let database: TestDatabase;
let handle: DatabaseHandle;
let recaptcha: RecaptchaServer;
let outboxDir: string;
let mailer: Mailer;
let deps: ContactHandlerDeps;
const logged: string[] = [];
let tokenSeq = 0;
let ipSeq = 0;
const passToken = () => `pass:${++tokenSeq}`;
/** Each test gets its own client address so the per-IP limit only bites where a test wants it to. */
const nextIp = () => `198.51.100.${++ipSeq}`;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await openDatabase(
    loadConfig({
      NODE_ENV: 'test',
      SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
      ...database.env,
    }).database,
  );
  await migrate(handle);
  recaptcha = await startRecaptchaServer();
  outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-contact-mail-'));
  mailer = createMailer(readMailSettings({ NODE_ENV: 'test', MAIL_OUTBOX_DIR: outboxDir, SUPPORT_EMAIL: SUPPORT }));
  deps = {
    contact: new ContactService(handle.db, {
      mail: new MailQueue(handle.db, mailer),
      supportEmail: mailer.settings.supportEmail,
      log: (m) => logged.push(m),
    }),
    limiter: new RateLimiter(handle.db),
    settings: readContactSettings({ RATE_LIMIT_CONTACT_PER_HOUR: '3' }),
    clientAddressSettings: readClientAddressSettings({}),
    botCheck: readBotCheckSettings({
      NODE_ENV: 'test',
      RECAPTCHA_SECRET: recaptcha.secret,
      RECAPTCHA_VERIFY_URL: recaptcha.verifyUrl,
      PUBLIC_RECAPTCHA_SITE_KEY: 'test-site-key',
    }),
    altcha: null,
    log: (m, e) => logged.push(`${m} ${e instanceof Error ? e.message : (e ?? '')}`),
  };
}, 180_000); // opening an embedded database is slow on a busy machine

afterAll(async () => {
  await recaptcha?.stop();
  await handle?.close();
  await database?.drop();
  fs.rmSync(outboxDir, { recursive: true, force: true });
});

function validForm(overrides: Record<string, unknown> = {}) {
  return {
    firstName: 'Ana',
    lastName: 'Lima',
    email: `ana.${tokenSeq + 1}@example.com`,
    phone: '+55 11 5555-0100',
    message: 'My Bravo gateway shows a red LED after flashing. What next?',
    'g-recaptcha-response': passToken(),
    ...overrides,
  };
}

function post(body: unknown, init: { headers?: Record<string, string>; raw?: BodyInit } = {}): Request {
  return new Request('http://shop.test/api/contact-form/create', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'vitest', ...init.headers },
    body: init.raw ?? JSON.stringify(body),
    // Node's fetch wants this for streamed bodies.
    ...(init.raw instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

async function send(request: Request, ip = nextIp(), d: ContactHandlerDeps = deps) {
  const response = await handleContactRequest(request, { socketAddress: ip }, d);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: JSON.parse(text) as { message: string; errors?: Record<string, string> },
  };
}

async function storedCount(): Promise<number> {
  return (await handle.withRawClient((c) => c.query<{ n: number }>('select count(*)::int as n from contact_messages')))
    .rows[0]!.n;
}

describe('a valid message', () => {
  it('is stored, mailed to support with the visitor as Reply-To, and thanked', async () => {
    const form = validForm({ email: 'ana.lima@example.com' });
    const ip = nextIp();
    const r = await send(post(form), ip);
    expect(r.status).toBe(200);
    expect(r.body.message).toMatch(/thank you/i);
    expect(r.headers.get('cache-control')).toBe('no-store');

    const rows = (
      await handle.withRawClient((c) =>
        c.query<Record<string, unknown>>("select * from contact_messages where email = 'ana.lima@example.com'"),
      )
    ).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      first_name: 'Ana',
      last_name: 'Lima',
      phone: '+55 11 5555-0100',
      message: form.message,
      remote_ip: ip,
      user_agent: 'vitest',
      mail_status: 'sent',
    });
    expect(rows[0]!.bot_score).toBeCloseTo(0.9);

    const [mail] = await readOutbox({ dir: outboxDir, to: SUPPORT, subject: 'Contact form: Ana Lima' });
    expect(mail).toBeDefined();
    expect(mail!.replyTo).toBe('ana.lima@example.com');
    expect(mail!.text).toContain(form.message);
    expect(mail!.text).toContain('+55 11 5555-0100');
    expect(mail!.headers['X-Meshfront-Contact-Id']).toBe(String(rows[0]!.id));

    // The stand-in saw the token and the client address.
    expect(recaptcha.requests.at(-1)).toMatchObject({
      response: form['g-recaptcha-response'],
      remoteip: ip,
      secret: recaptcha.secret,
    });
  });

  it('accepts the token in the google-recaptcha-token header, and a missing phone', async () => {
    const { 'g-recaptcha-response': _omit, phone: _phone, ...form } = validForm();
    const r = await send(post(form, { headers: { 'google-recaptcha-token': passToken() } }));
    expect(r.status).toBe(200);
  });

  it('trims fields before storing them', async () => {
    const r = await send(post(validForm({ firstName: '  Bea ', email: ' bea@example.com ' })));
    expect(r.status).toBe(200);
    const rows = (
      await handle.withRawClient((c) =>
        c.query<{ first_name: string }>("select first_name from contact_messages where email = 'bea@example.com'"),
      )
    ).rows;
    expect(rows[0]!.first_name).toBe('Bea');
  });
});

describe('validation', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['firstName', { firstName: '' }, /first name/i],
    ['firstName', { firstName: undefined }, /first name/i],
    ['firstName', { firstName: 'A\nBcc: x@evil.example' }, /one line/i],
    ['lastName', { lastName: '   ' }, /last name/i],
    ['lastName', { lastName: 'x'.repeat(101) }, /too long/i],
    ['email', { email: 'not-an-email' }, /^Please enter a valid email$/],
    ['email', { email: 'ana@@example.com' }, /valid email/],
    ['email', { email: 42 }, /valid email/],
    ['phone', { phone: 'call me maybe' }, /phone/i],
    ['message', { message: '' }, /message/i],
    ['message', { message: 'x'.repeat(5001) }, /too long/i],
  ];
  it.each(cases)('refuses a bad %s with a per-field error and stores nothing', async (field, override, pattern) => {
    const before = await storedCount();
    const r = await send(post(validForm(override)));
    expect(r.status).toBe(400);
    expect(r.body.errors?.[field]).toMatch(pattern);
    expect(r.body.message.length).toBeGreaterThan(0);
    expect(Object.keys(r.body.errors!)).toEqual([field]);
    expect(await storedCount()).toBe(before);
  });

  it('lists every bad field at once', async () => {
    const r = await send(post({ 'g-recaptcha-response': passToken() }));
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors!).sort()).toEqual(['email', 'firstName', 'lastName', 'message']);
    expect(r.body.message).toContain('Please enter a valid email');
  });

  it('refuses bodies that are not JSON objects', async () => {
    expect(
      (
        await send(
          post(null, { raw: 'firstName=Ana', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
        )
      ).status,
    ).toBe(415);
    expect((await send(post(null, { raw: '{"firstName":' }))).status).toBe(400);
    expect((await send(post(null, { raw: '[1,2]' }))).status).toBe(400);
  });

  it('refuses an oversized body with 413, whether or not it declares its length', async () => {
    const huge = JSON.stringify(validForm({ message: 'x'.repeat(17 * 1024) }));
    const declared = await send(post(null, { raw: huge }));
    expect(declared.status).toBe(413);
    const bytes = new TextEncoder().encode(huge);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 1024) controller.enqueue(bytes.slice(i, i + 1024));
        controller.close();
      },
    });
    const streamed = await send(post(null, { raw: stream }));
    expect(streamed.status).toBe(413);
    expect(streamed.body.message).toMatch(/too large/i);
  });

  it('checks e-mail addresses exactly like the storefront form does', () => {
    const corpus = [
      'ana@example.com',
      'a.b+tag@sub.example.co.uk',
      'x@localhost',
      "o'brien@example.ie",
      'user@[127.0.0.1]',
      'ana@example',
      'ana@-example.com',
      'ana@example-.com',
      'ana example@example.com',
      'ana@exa mple.com',
      '@example.com',
      'ana@',
      'ana@@example.com',
      'ánä@example.com',
      'ana@exämple.com',
      `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
      `${'a'.repeat(250)}@e.co`,
      'a"b@example.com',
      '',
    ];
    for (const address of corpus)
      expect([address, clientIsValidEmail(address)]).toEqual([address, isValidEmailAddress(address.trim())]);
  });
});

describe('bot check', () => {
  it.each(['fail', 'low-score', 'wrong-action'])('refuses a %s token and stores nothing', async (kind) => {
    const before = await storedCount();
    const r = await send(post(validForm({ 'g-recaptcha-response': `${kind}:${++tokenSeq}` })));
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^Bot check failed/);
    expect(await storedCount()).toBe(before);
  });

  it('refuses a missing token and a replayed one', async () => {
    const { 'g-recaptcha-response': _omit, ...form } = validForm();
    expect((await send(post(form))).body.message).toMatch(/^Bot check failed/);
    const token = passToken();
    expect((await send(post(validForm({ 'g-recaptcha-response': token })))).status).toBe(200);
    expect((await send(post(validForm({ 'g-recaptcha-response': token })))).status).toBe(400);
  });

  it('fails closed when siteverify cannot be reached', async () => {
    const offline = {
      ...deps,
      botCheck: { ...deps.botCheck, verifyUrl: 'http://127.0.0.1:9/recaptcha/api/siteverify', timeoutMs: 500 },
    };
    const r = await send(post(validForm()), nextIp(), offline);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^Bot check failed/);
  });
});

describe('rate limit', () => {
  it('allows RATE_LIMIT_CONTACT_PER_HOUR messages per address, then answers 429 with Retry-After', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < 3; i++) expect((await send(post(validForm()), ip)).status).toBe(200);
    const before = await storedCount();
    const r = await send(post(validForm()), ip);
    expect(r.status).toBe(429);
    expect(r.body.message).toMatch(/too many/i);
    const retryAfter = Number(r.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(7200);
    expect(await storedCount()).toBe(before);
    // Another address is not affected, and neither is another host of the same IPv4 network.
    expect((await send(post(validForm()), '203.0.113.78')).status).toBe(200);
  });

  it('limits an IPv6 client by its /64', async () => {
    for (let i = 0; i < 3; i++) expect((await send(post(validForm()), `2001:db8:5:6::${i + 1}`)).status).toBe(200);
    expect((await send(post(validForm()), '2001:db8:5:6:ffff::1')).status).toBe(429);
  });

  it('reads the client address from X-Forwarded-For only with TRUST_PROXY', async () => {
    const proxied = { ...deps, clientAddressSettings: readClientAddressSettings({ TRUST_PROXY: '1' }) };
    const viaProxy = (client: string) => post(validForm(), { headers: { 'x-forwarded-for': `1.1.1.1, ${client}` } });
    for (let i = 0; i < 3; i++) expect((await send(viaProxy('192.0.2.200'), '10.0.0.1', proxied)).status).toBe(200);
    expect((await send(viaProxy('192.0.2.200'), '10.0.0.1', proxied)).status).toBe(429);
    expect((await send(viaProxy('192.0.2.201'), '10.0.0.1', proxied)).status).toBe(200);
  });
});

describe('failures', () => {
  it('answers 500 "Something went wrong" without internals and logs the error', async () => {
    const broken = {
      ...deps,
      contact: {
        submit: async () => {
          throw new Error('relation "contact_messages" does not exist at /srv/app/secret.ts:42');
        },
      } as unknown as ContactService,
    };
    const r = await send(post(validForm()), nextIp(), broken);
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ message: 'Something went wrong' });
    expect(r.text).not.toMatch(/relation|secret|\.ts/);
    expect(logged.some((l) => l.includes('relation "contact_messages" does not exist'))).toBe(true);
  });

  it('keeps the message and still thanks the visitor when mailing support fails', async () => {
    const failingMailer: Mailer = {
      ...mailer,
      sendMail: async () => {
        throw new Error('SMTP 421 try later');
      },
    };
    // One attempt: the mail counts as failed at once (the retries are the mail queue's own test).
    const queueSettings = { ...mailer.settings.queue, maxAttempts: 1 };
    const d = {
      ...deps,
      contact: new ContactService(handle.db, {
        mail: new MailQueue(handle.db, failingMailer, queueSettings),
        supportEmail: SUPPORT,
        log: (m) => logged.push(m),
      }),
    };
    const r = await send(post(validForm({ email: 'smtp.down@example.com' })), nextIp(), d);
    expect(r.status).toBe(200);
    const rows = (
      await handle.withRawClient((c) =>
        c.query<{ mail_status: string; mail_error: string }>(
          "select mail_status, mail_error from contact_messages where email = 'smtp.down@example.com'",
        ),
      )
    ).rows;
    expect(rows[0]).toEqual({ mail_status: 'failed', mail_error: 'SMTP 421 try later' });
  });

  it('refuses other methods', async () => {
    const r = await send(new Request('http://shop.test/api/contact-form/create', { method: 'GET' }));
    expect(r.status).toBe(405);
  });
});

describe('GET /api/contact-form/config', () => {
  it('tells the form which reCAPTCHA site key and script to load', async () => {
    const r = handleContactConfig({
      botCheck: deps.botCheck,
      settings: readContactSettings({ PUBLIC_RECAPTCHA_SCRIPT_URL: '/test/recaptcha.js' }),
    });
    // ALTCHA too: the check for visitors who do not consent to Google's script.
    expect(await r.json()).toEqual({
      recaptcha: { siteKey: 'test-site-key', scriptUrl: '/test/recaptcha.js' },
      altcha: { challengeUrl: '/api/altcha/challenge' },
    });
    const dflt = handleContactConfig({ botCheck: deps.botCheck, settings: readContactSettings({}) });
    expect((await dflt.json()).recaptcha.scriptUrl).toBe('https://www.google.com/recaptcha/api.js');
  });

  it('says no token is needed when verification is off', async () => {
    const off = readBotCheckSettings({ NODE_ENV: 'development', PUBLIC_RECAPTCHA_SITE_KEY: 'k' });
    const r = handleContactConfig({ botCheck: off, settings: deps.settings });
    expect(await r.json()).toEqual({ recaptcha: null, altcha: null });
  });
});
