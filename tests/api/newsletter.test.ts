// The newsletter's double opt-in through its REST handlers with real Request objects, a real database and
// the file outbox: the links in the mails are what the test follows. Single-use and expiring confirmation
// tokens, unsubscribe (page form and RFC 8058 one-click), per-IP and per-address limits, and one answer
// for every address so the form cannot tell who is subscribed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { createMailer, MailQueue, readMailSettings, readOutbox, type Mailer } from '../../src/server/mail/index.ts';
import {
  handleConfirm,
  handleSubscribe,
  handleUnsubscribeGet,
  handleUnsubscribePost,
  hashToken,
  NewsletterService,
  readNewsletterSettings,
  SUBSCRIBE_MESSAGE,
  type NewsletterHandlerDeps,
} from '../../src/server/newsletter/index.ts';
import { RateLimiter, readClientAddressSettings } from '../../src/server/rate-limit/index.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/db.ts';

let database: TestDatabase;
let handle: DatabaseHandle;
let outboxDir: string;
let mailer: Mailer;
let deps: NewsletterHandlerDeps;
let clockOffsetMs = 0;
let ipSeq = 0;
const nextIp = () => `192.0.2.${++ipSeq}`;

function makeDeps(env: Record<string, string> = {}): NewsletterHandlerDeps {
  const limiter = new RateLimiter(handle.db);
  const settings = readNewsletterSettings({
    NODE_ENV: 'test',
    PUBLIC_SITE_URL: 'http://shop.test/',
    RATE_LIMIT_NEWSLETTER_PER_HOUR: '50',
    ...env,
  });
  return {
    newsletter: new NewsletterService(handle.db, {
      mail: new MailQueue(handle.db, mailer),
      limiter,
      settings,
      now: () => new Date(Date.now() + clockOffsetMs),
    }),
    limiter,
    settings,
    clientAddressSettings: readClientAddressSettings({}),
    log: () => {},
  };
}

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
  outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-newsletter-mail-'));
  mailer = createMailer(readMailSettings({ NODE_ENV: 'test', MAIL_OUTBOX_DIR: outboxDir }));
  deps = makeDeps();
}, 180_000); // opening an embedded database is slow on a busy machine

afterAll(async () => {
  await handle?.close();
  await database?.drop();
  fs.rmSync(outboxDir, { recursive: true, force: true });
});

async function subscribe(body: unknown, ip = nextIp(), d = deps) {
  const request = new Request('http://shop.test/api/newsletter/subscribe', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const response = await handleSubscribe(request, { socketAddress: ip }, d);
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { message: string; errors?: Record<string, string> },
  };
}

async function mailsTo(address: string, subject: RegExp) {
  return readOutbox({ dir: outboxDir, to: address, subject });
}

/** The newest mail's confirmation link: the mail is in the sign-up's language, so it is found by its link. */
async function confirmLinkFor(address: string): Promise<string> {
  const mails = await mailsTo(address, /./);
  const link = mails.flatMap((m) => m.links).find((l) => l.includes('/api/newsletter/confirm?token='));
  expect(link, `a confirmation mail to ${address}`).toBeDefined();
  return link!;
}

async function follow(link: string, d = deps) {
  const response = await handleConfirm(new Request(link), { socketAddress: '192.0.2.250' }, d);
  return { status: response.status, location: response.headers.get('location') };
}

async function row(address: string) {
  return deps.newsletter.find(address);
}

describe('double opt-in', () => {
  it('stores a pending subscriber, mails a confirmation link, and confirms through it', async () => {
    const r = await subscribe({ email: 'Ana.Sub@Example.com', locale: 'de_DE' });
    expect(r).toMatchObject({ status: 200, body: { message: SUBSCRIBE_MESSAGE } });

    // Written in the language of the form the address was entered in.
    const [asked] = await mailsTo('ana.sub@example.com', /./);
    expect(asked!.subject).toBe('Bestätige deine Anmeldung zum Newsletter von Meshfront');
    expect(asked!.text).not.toContain('Please confirm');

    const pending = await row('ana.sub@example.com');
    expect(pending).toMatchObject({ email: 'ana.sub@example.com', locale: 'de_DE', status: 'pending' });
    const link = await confirmLinkFor('ana.sub@example.com');
    expect(link.startsWith('http://shop.test/api/newsletter/confirm?token=')).toBe(true);
    // Only the hash is at rest.
    const token = new URL(link).searchParams.get('token')!;
    expect(pending!.confirmTokenHash).toBe(hashToken(token));
    expect(JSON.stringify(pending)).not.toContain(token);
    expect(pending!.confirmExpiresAt!.getTime() - Date.now()).toBeGreaterThan(47 * 3600_000);

    const confirmed = await follow(link);
    expect(confirmed).toEqual({ status: 303, location: '/de/newsletter/confirmed' });
    expect(await row('ana.sub@example.com')).toMatchObject({
      status: 'confirmed',
      confirmTokenHash: null,
      confirmedIp: '192.0.2.250',
    });

    const [welcome] = await mailsTo('ana.sub@example.com', /^Willkommen beim Newsletter von Meshfront$/);
    expect(welcome).toBeDefined();
    const unsubscribe = welcome!.links.find((l) => l.includes('/api/newsletter/unsubscribe?token='))!;
    expect(unsubscribe.startsWith('http://shop.test/')).toBe(true);
    expect(welcome!.headers['List-Unsubscribe']).toBe(`<${unsubscribe}>`);
    expect(welcome!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });

  it('accepts a confirmation token once only, even when clicks race', async () => {
    await subscribe({ email: 'race@example.com', locale: 'fr_FR' });
    const link = await confirmLinkFor('race@example.com');
    const results = await Promise.all(Array.from({ length: 5 }, () => follow(link)));
    expect(results.filter((r) => r.location === '/fr/newsletter/confirmed')).toHaveLength(1);
    expect(results.filter((r) => r.location === '/newsletter/invalid')).toHaveLength(4);
    expect(await mailsTo('race@example.com', /^Bienvenue dans la newsletter de Meshfront$/)).toHaveLength(1);
    expect(await follow(link)).toEqual({ status: 303, location: '/newsletter/invalid' });
  });

  it('refuses an expired confirmation link and leaves the subscriber pending', async () => {
    await subscribe({ email: 'late@example.com', locale: 'it_IT' });
    const link = await confirmLinkFor('late@example.com');
    clockOffsetMs = 49 * 3600_000;
    try {
      expect(await follow(link)).toEqual({ status: 303, location: '/it/newsletter/invalid' });
    } finally {
      clockOffsetMs = 0;
    }
    expect((await row('late@example.com'))!.status).toBe('pending');
    // A new sign-up sends a new link; the old one stays dead.
    await subscribe({ email: 'late@example.com', locale: 'it_IT' });
    const fresh = await confirmLinkFor('late@example.com');
    expect(fresh).not.toBe(link);
    expect(await follow(link)).toEqual({ status: 303, location: '/newsletter/invalid' });
    expect(await follow(fresh)).toEqual({ status: 303, location: '/it/newsletter/confirmed' });
  });

  it('refuses made-up and malformed tokens', async () => {
    expect(await follow(`http://shop.test/api/newsletter/confirm?token=${'A'.repeat(43)}`)).toEqual({
      status: 303,
      location: '/newsletter/invalid',
    });
    expect(await follow("http://shop.test/api/newsletter/confirm?token=' or 1=1 --")).toEqual({
      status: 303,
      location: '/newsletter/invalid',
    });
    expect(await follow('http://shop.test/api/newsletter/confirm')).toEqual({
      status: 303,
      location: '/newsletter/invalid',
    });
  });
});

describe('no enumeration', () => {
  it('answers a known, confirmed address exactly like a new one, and mails it nothing', async () => {
    await subscribe({ email: 'known@example.com', locale: 'en_US' });
    await follow(await confirmLinkFor('known@example.com'));
    const mailsBefore = (await mailsTo('known@example.com', /./)).length;

    const known = await subscribe({ email: 'known@example.com', locale: 'es_ES' });
    const fresh = await subscribe({ email: 'brand-new@example.com', locale: 'es_ES' });
    expect(known).toEqual({ ...fresh, headers: known.headers });
    expect([...known.headers.entries()]).toEqual([...fresh.headers.entries()]);
    expect((await mailsTo('known@example.com', /./)).length).toBe(mailsBefore);
    expect(await row('known@example.com')).toMatchObject({ status: 'confirmed', locale: 'en_US' });
  });
});

describe('unsubscribe', () => {
  async function confirmedWelcome(address: string, locale: string) {
    await subscribe({ email: address, locale });
    await follow(await confirmLinkFor(address));
    const mails = await mailsTo(address, /./);
    return mails.flatMap((m) => m.links).find((l) => l.includes('/api/newsletter/unsubscribe?token='))!;
  }

  it('shows a page with a button for the mail link, and unsubscribes on its form post', async () => {
    const link = await confirmedWelcome('leaving@example.com', 'pt_BR');
    const token = new URL(link).searchParams.get('token')!;
    const get = await handleUnsubscribeGet(new Request(link), {}, deps);
    expect(get.status).toBe(303);
    expect(get.headers.get('location')).toBe(`/pt-br/newsletter/unsubscribe?token=${token}`);
    // Opening the link changes nothing (mail scanners open every link).
    expect((await row('leaving@example.com'))!.status).toBe('confirmed');

    const formPost = () =>
      handleUnsubscribePost(
        new Request('http://shop.test/api/newsletter/unsubscribe', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `token=${token}`,
        }),
        {},
        deps,
      );
    const post = await formPost();
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('/pt-br/newsletter/unsubscribed');
    const after = await row('leaving@example.com');
    expect(after).toMatchObject({ status: 'unsubscribed' });
    // Twice is fine and keeps the first time.
    expect((await formPost()).headers.get('location')).toBe('/pt-br/newsletter/unsubscribed');
    expect((await row('leaving@example.com'))!.unsubscribedAt).toEqual(after!.unsubscribedAt);
  });

  it('supports RFC 8058 one-click unsubscribe', async () => {
    const link = await confirmedWelcome('oneclick@example.com', 'en_US');
    const r = await handleUnsubscribePost(
      new Request(link, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
      {},
      deps,
    );
    expect(r.status).toBe(200);
    expect((await row('oneclick@example.com'))!.status).toBe('unsubscribed');
    const bad = await handleUnsubscribePost(
      new Request(`http://shop.test/api/newsletter/unsubscribe?token=${'B'.repeat(43)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
      {},
      deps,
    );
    expect(bad.status).toBe(400);
  });

  it('sends an unknown unsubscribe token to the invalid-link page', async () => {
    const r = await handleUnsubscribeGet(
      new Request(`http://shop.test/api/newsletter/unsubscribe?token=${'C'.repeat(43)}`),
      {},
      deps,
    );
    expect(r.headers.get('location')).toBe('/newsletter/invalid');
  });

  it('lets an unsubscribed address sign up again through a new confirmation', async () => {
    await confirmedWelcome('again@example.com', 'en_US');
    const [welcome] = await mailsTo('again@example.com', /Welcome/);
    const link = welcome!.links.find((l) => l.includes('unsubscribe'))!;
    await handleUnsubscribePost(
      new Request(link, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
      {},
      deps,
    );
    await subscribe({ email: 'again@example.com', locale: 'en_US' });
    expect((await row('again@example.com'))!.status).toBe('pending');
    expect(await follow(await confirmLinkFor('again@example.com'))).toEqual({
      status: 303,
      location: '/newsletter/confirmed',
    });
    // The old unsubscribe link belonged to the old subscription.
    expect((await handleUnsubscribeGet(new Request(link), {}, deps)).headers.get('location')).toBe(
      '/newsletter/invalid',
    );
  });
});

describe('validation and limits', () => {
  it('refuses a bad address with a field error, and bodies that are not JSON', async () => {
    const r = await subscribe({ email: 'nope', locale: 'en_US' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ email: 'Please enter a valid email' });
    expect((await subscribe('{"email":')).status).toBe(400);
    const form = await handleSubscribe(
      new Request('http://shop.test/api/newsletter/subscribe', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'email=a@b.c',
      }),
      { socketAddress: nextIp() },
      deps,
    );
    expect(form.status).toBe(415);
    expect((await subscribe({ email: `${'a'.repeat(3000)}@example.com` })).status).toBe(413);
  });

  it('falls back to English for an unknown locale', async () => {
    await subscribe({ email: 'nolocale@example.com', locale: 'xx_YY' });
    expect((await row('nolocale@example.com'))!.locale).toBe('en_US');
  });

  it('limits sign-ups per client address with 429 and Retry-After', async () => {
    const d = makeDeps({ RATE_LIMIT_NEWSLETTER_PER_HOUR: '2' });
    const ip = '198.51.100.200';
    expect((await subscribe({ email: 'l1@example.com' }, ip, d)).status).toBe(200);
    expect((await subscribe({ email: 'l2@example.com' }, ip, d)).status).toBe(200);
    const r = await subscribe({ email: 'l3@example.com' }, ip, d);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await row('l3@example.com')).toBeNull();
  });

  it('sends one address at most three confirmation mails an hour, answering the same', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await subscribe({ email: 'victim@example.com', locale: 'en_US' }));
    expect(answers.every((a) => a.status === 200 && a.body.message === SUBSCRIBE_MESSAGE)).toBe(true);
    expect(await mailsTo('victim@example.com', /Confirm/)).toHaveLength(3);
  });
});

describe('settings', () => {
  it('links to a fixed origin in production (never the request’s) and to the request origin elsewhere', async () => {
    expect(readNewsletterSettings({ NODE_ENV: 'production' }).siteUrl).toBe('http://localhost:4321');
    expect(readNewsletterSettings({ NODE_ENV: 'production', SESSION_ISSUER: 'https://shop.example/' }).siteUrl).toBe(
      'https://shop.example',
    );
    expect(
      readNewsletterSettings({ NODE_ENV: 'production', PUBLIC_SITE_URL: 'https://www.shop.example' }).siteUrl,
    ).toBe('https://www.shop.example');
    expect(readNewsletterSettings({ NODE_ENV: 'development' })).toMatchObject({
      siteUrl: null,
      confirmSeconds: 48 * 3600,
      perHourPerIp: 10,
    });
    const d = makeDeps({ PUBLIC_SITE_URL: '' });
    await handleSubscribe(
      new Request('http://localhost:4399/api/newsletter/subscribe', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'origin@example.com' }),
      }),
      { socketAddress: nextIp() },
      d,
    );
    expect(
      (await confirmLinkFor('origin@example.com')).startsWith('http://localhost:4399/api/newsletter/confirm?token='),
    ).toBe(true);
  });
});
