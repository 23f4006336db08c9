// The self-hosted bot check (ALTCHA) of the contact form, as a shop without reCAPTCHA keys runs it in
// production: GET /api/altcha/challenge hands out a signed challenge, the test solves it the way the
// widget's worker does (altcha-lib's solver), and POST /api/contact-form/create accepts the message once.
// Missing, forged, altered, wrong, expired and reused answers are refused with a clear message; with
// reCAPTCHA keys the reCAPTCHA path is used. Real Request objects, a real database (PGlite or PostgreSQL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AltchaChallenges,
  altchaKeys,
  handleAltchaChallenge,
  readBotCheckSettings,
  type BotCheckSettings,
} from '../../src/server/bot-check/index.ts';
import { loadConfig } from '../../src/server/config.ts';
import {
  ALTCHA_FAILED_MESSAGES,
  BOT_CHECK_FAILED_MESSAGE,
  CONTACT_SUCCESS_MESSAGE,
  ContactService,
  handleContactConfig,
  handleContactRequest,
  readContactSettings,
  type ContactHandlerDeps,
} from '../../src/server/contact/index.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { createMailer, MailQueue, readMailSettings } from '../../src/server/mail/index.ts';
import { RateLimiter, readClientAddressSettings } from '../../src/server/rate-limit/index.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/db.ts';
import { startRecaptchaServer, type RecaptchaServer } from '../fixtures/recaptcha-server.ts';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
// A shop in production without any reCAPTCHA key; cheap challenges so the test solves them at once.
const PRODUCTION_WITHOUT_KEYS = {
  NODE_ENV: 'production',
  ALTCHA_COST: '10',
  ALTCHA_MAX_COUNTER: '40',
  ALTCHA_CHALLENGES_PER_HOUR: '3',
};

let database: TestDatabase;
let handle: DatabaseHandle;
let recaptcha: RecaptchaServer;
let outboxDir: string;
let limiter: RateLimiter;
let botCheck: BotCheckSettings;
let deps: ContactHandlerDeps;
let ipSeq = 0;
const nextIp = () => `203.0.113.${++ipSeq}`;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await openDatabase(loadConfig({ NODE_ENV: 'test', SESSION_SECRET: SECRET, ...database.env }).database);
  await migrate(handle);
  recaptcha = await startRecaptchaServer();
  outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-altcha-mail-'));
  const mailer = createMailer(readMailSettings({ NODE_ENV: 'test', MAIL_OUTBOX_DIR: outboxDir }));
  limiter = new RateLimiter(handle.db);
  botCheck = readBotCheckSettings(PRODUCTION_WITHOUT_KEYS);
  deps = {
    contact: new ContactService(handle.db, {
      mail: new MailQueue(handle.db, mailer),
      supportEmail: mailer.settings.supportEmail,
      log: () => {},
    }),
    limiter,
    settings: readContactSettings({ RATE_LIMIT_CONTACT_PER_HOUR: '100' }),
    clientAddressSettings: readClientAddressSettings({}),
    botCheck,
    altcha: new AltchaChallenges(botCheck.altcha, altchaKeys(SECRET), { limiter }),
    log: () => {},
  };
}, 180_000); // opening an embedded database is slow on a busy machine

afterAll(async () => {
  await recaptcha?.stop();
  await handle?.close();
  await database?.drop();
  if (outboxDir) fs.rmSync(outboxDir, { recursive: true, force: true });
});

let formSeq = 0;
function form(overrides: Record<string, unknown> = {}) {
  return {
    firstName: 'Ana',
    lastName: 'Lima',
    email: `altcha.${++formSeq}@example.com`,
    message: 'Does the Bravo gateway work with the OS image?',
    ...overrides,
  };
}

async function send(body: unknown, d: ContactHandlerDeps = deps, ip = nextIp()) {
  const request = new Request('http://shop.test/api/contact-form/create', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const response = await handleContactRequest(request, { socketAddress: ip }, d);
  return { status: response.status, body: (await response.json()) as { message: string } };
}

async function storedWith(email: string): Promise<number> {
  return (
    await handle.withRawClient((c) =>
      c.query<{ n: number }>('select count(*)::int as n from contact_messages where email = $1', [email]),
    )
  ).rows[0]!.n;
}

/** GET /api/altcha/challenge as the widget does. */
async function fetchChallenge(d: ContactHandlerDeps = deps, ip = nextIp()) {
  const response = await handleAltchaChallenge(
    new Request('http://shop.test/api/altcha/challenge'),
    { socketAddress: ip },
    d,
  );
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Challenge & { message?: string },
  };
}

/** What the widget sends: base64 of {challenge: {parameters, signature}, solution}, solved like its worker. */
async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution');
  return Buffer.from(
    JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution }),
  ).toString('base64');
}

const decode = (payload: string) => JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('a shop in production without reCAPTCHA keys', () => {
  it('uses the self-hosted check: the form is told to show the ALTCHA widget, not to load Google’s script', async () => {
    expect(readBotCheckSettings({ NODE_ENV: 'production' })).toMatchObject({
      mode: 'altcha',
      secret: null,
      altcha: { cost: 5000, maxCounter: 10_000, ttlSeconds: 600, challengesPerHour: 60 },
    });
    const config = handleContactConfig({ botCheck, settings: deps.settings });
    expect(await config.json()).toEqual({ recaptcha: null, altcha: { challengeUrl: '/api/altcha/challenge' } });
  });

  it('hands out signed, expiring PBKDF2 challenges that are never cached', async () => {
    const before = Date.now() / 1000;
    const r = await fetchChallenge();
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 10 });
    expect(r.body.parameters.expiresAt).toBeGreaterThan(before + 590);
    expect(r.body.parameters.expiresAt).toBeLessThan(before + 610);
    expect(r.body.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body.parameters.keySignature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lets a message through with a solved challenge, and stores and mails it', async () => {
    const payload = await solve((await fetchChallenge()).body);
    const message = form({ altcha: payload });
    const r = await send(message);
    expect(r).toEqual({ status: 200, body: { message: CONTACT_SUCCESS_MESSAGE } });
    expect(await storedWith(message.email)).toBe(1);
  });

  it('accepts an answer once: sent again (by this or another engine process) it is refused and nothing is stored', async () => {
    const payload = await solve((await fetchChallenge()).body);
    expect((await send(form({ altcha: payload }))).status).toBe(200);
    // Another process has its own limiter on the same database.
    const otherProcess: ContactHandlerDeps = {
      ...deps,
      altcha: new AltchaChallenges(botCheck.altcha, altchaKeys(SECRET), { limiter: new RateLimiter(handle.db) }),
    };
    const again = form({ altcha: payload });
    expect(await send(again, otherProcess)).toEqual({
      status: 400,
      body: { message: ALTCHA_FAILED_MESSAGES.replayed },
    });
    expect(ALTCHA_FAILED_MESSAGES.replayed).toMatch(
      /^Bot check failed: this verification was already used\. Please send the form again\.$/,
    );
    expect(await storedWith(again.email)).toBe(0);
  });

  it('refuses a message without an answer', async () => {
    const message = form();
    expect(await send(message)).toEqual({ status: 400, body: { message: ALTCHA_FAILED_MESSAGES['missing-token'] } });
    expect(ALTCHA_FAILED_MESSAGES['missing-token']).toMatch(
      /^Bot check failed: the form was sent without its verification/,
    );
    // A reCAPTCHA token is no substitute.
    expect((await send(form({ 'g-recaptcha-response': 'pass:1' }))).status).toBe(400);
    expect(await storedWith(message.email)).toBe(0);
  });

  it('refuses an answer to a challenge that has expired', async () => {
    const lastHour = new AltchaChallenges(botCheck.altcha, altchaKeys(SECRET), {
      limiter,
      now: () => Date.now() - 3600_000,
    });
    const payload = await solve(await lastHour.create());
    const message = form({ altcha: payload });
    expect(await send(message)).toEqual({ status: 400, body: { message: ALTCHA_FAILED_MESSAGES.expired } });
    expect(ALTCHA_FAILED_MESSAGES.expired).toBe(
      'Bot check failed: the verification has expired. Please send the form again.',
    );
    expect(await storedWith(message.email)).toBe(0);
  });

  it('refuses forged, altered and wrong answers and anything that is not an answer', async () => {
    // Signed by someone else's key (another shop, or made up by a bot).
    const elsewhere = new AltchaChallenges(
      botCheck.altcha,
      altchaKeys('another-secret-that-is-long-enough-0123456789'),
      { limiter },
    );
    const forged = await solve(await elsewhere.create());
    // Ours, with the work made cheaper after signing.
    const genuine = decode(await solve((await fetchChallenge()).body));
    const cheaper = encode({
      ...genuine,
      challenge: { ...genuine.challenge, parameters: { ...genuine.challenge.parameters, cost: 1 } },
    });
    // Ours, with a derived key that is not the one the answer gives.
    const wrongKey = encode({ ...genuine, solution: { ...genuine.solution, derivedKey: 'ab'.repeat(32) } });
    // Ours, with its expiry pushed back.
    const longer = encode({
      ...genuine,
      challenge: {
        ...genuine.challenge,
        parameters: { ...genuine.challenge.parameters, expiresAt: genuine.challenge.parameters.expiresAt + 86_400 },
      },
    });
    for (const altcha of [
      forged,
      cheaper,
      wrongKey,
      longer,
      'bm90IGpzb24=',
      encode({ challenge: null, solution: null, test: true }),
      'x'.repeat(9000),
    ]) {
      const message = form({ altcha });
      const r = await send(message);
      expect(r.status, altcha.slice(0, 40)).toBe(400);
      expect(r.body.message).toMatch(/^Bot check failed/);
      expect(await storedWith(message.email)).toBe(0);
    }
    expect((await send(form({ altcha: forged }))).body.message).toBe(BOT_CHECK_FAILED_MESSAGE);
    // The genuine answer was never used by those attempts: it still works once.
    expect((await send(form({ altcha: encode(genuine) }))).status).toBe(200);
  });

  it('limits how many challenges one address may fetch per hour', async () => {
    const ip = nextIp();
    for (let i = 0; i < 3; i++) expect((await fetchChallenge(deps, ip)).status).toBe(200);
    const refused = await fetchChallenge(deps, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/Too many verification requests/);
    expect((await fetchChallenge(deps, nextIp())).status).toBe(200);
  });
});

describe('signing keys', () => {
  it('are derived from the session secret, so every process sharing it accepts the others’ challenges; ALTCHA_HMAC_KEY replaces it', async () => {
    expect(altchaKeys(SECRET)).toEqual(altchaKeys(SECRET));
    expect(altchaKeys(SECRET).challenge).not.toBe(altchaKeys(SECRET).solution);
    expect(altchaKeys('x'.repeat(40))).not.toEqual(altchaKeys(SECRET));
    expect(readBotCheckSettings({ NODE_ENV: 'production', ALTCHA_HMAC_KEY: 'k'.repeat(32) }).altcha.hmacKey).toBe(
      'k'.repeat(32),
    );
    expect(() => readBotCheckSettings({ NODE_ENV: 'production', ALTCHA_HMAC_KEY: 'short' })).toThrow(
      /ALTCHA_HMAC_KEY must be at least 32 characters/,
    );
  });
});

describe('with reCAPTCHA keys', () => {
  it('uses reCAPTCHA for visitors who accepted it and ALTCHA for the others: the form is told both, each answer passes alone', async () => {
    const withKeys = readBotCheckSettings({
      NODE_ENV: 'production',
      RECAPTCHA_SECRET: recaptcha.secret,
      RECAPTCHA_VERIFY_URL: recaptcha.verifyUrl,
      PUBLIC_RECAPTCHA_SITE_KEY: 'site-key',
      ALTCHA_COST: '10',
      ALTCHA_MAX_COUNTER: '40',
    });
    expect(withKeys.mode).toBe('recaptcha');
    // As createContactHandlerDeps wires it: challenges with reCAPTCHA too.
    const d: ContactHandlerDeps = {
      ...deps,
      botCheck: withKeys,
      altcha: new AltchaChallenges(withKeys.altcha, altchaKeys(SECRET), { limiter }),
    };
    expect(await handleContactConfig({ botCheck: withKeys, settings: deps.settings }).json()).toEqual({
      recaptcha: { siteKey: 'site-key', scriptUrl: 'https://www.google.com/recaptcha/api.js' },
      altcha: { challengeUrl: '/api/altcha/challenge' },
    });

    // A visitor without consent to Google's script: the ALTCHA answer alone is enough, Google is not asked.
    const before = recaptcha.requests.length;
    const challenge = await fetchChallenge(d);
    expect(challenge.status).toBe(200);
    const payload = await solve(challenge.body);
    const email = `no-consent.${Date.now()}@example.com`;
    expect(await send(form({ email, altcha: payload }), d)).toEqual({ status: 200, body: expect.any(Object) });
    expect(await storedWith(email)).toBe(1);
    expect(recaptcha.requests.length).toBe(before);
    // …and once only, like any ALTCHA answer; a refused one gets the ALTCHA message.
    const again = await send(form({ altcha: payload }), d);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(ALTCHA_FAILED_MESSAGES.replayed);

    // A visitor who accepted reCAPTCHA: the token is verified with Google.
    expect((await send(form({ 'g-recaptcha-response': 'pass:altcha-test' }), d)).status).toBe(200);
    expect(recaptcha.requests.length).toBe(before + 1);
    // Neither answer: refused.
    expect((await send(form(), d)).status).toBe(400);

    // Verification off (development): no challenges, nothing named.
    const off = readBotCheckSettings({ NODE_ENV: 'development' });
    expect((await fetchChallenge({ ...deps, botCheck: off, altcha: null })).status).toBe(404);
  });
});
