// Bot check: every verification outcome against a local siteverify stand-in that speaks Google's protocol,
// network failures and timeouts, and what happens without a secret in development and in production.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  readBotCheckSettings,
  BotCheckSettingsError,
  type BotCheckSettings,
} from '../../src/server/bot-check/settings.ts';
import { verifyBotToken } from '../../src/server/bot-check/verify.ts';
import { startRecaptchaServer, type RecaptchaServer } from '../fixtures/recaptcha-server.ts';

let siteverify: RecaptchaServer;
let settings: BotCheckSettings;
let counter = 0;
/** A fresh single-use token with the given behaviour ('pass:1', 'pass:2', …). */
const token = (kind: string) => `${kind}:${++counter}`;

beforeAll(async () => {
  siteverify = await startRecaptchaServer();
  settings = readBotCheckSettings({
    NODE_ENV: 'test',
    RECAPTCHA_SECRET: siteverify.secret,
    RECAPTCHA_VERIFY_URL: siteverify.verifyUrl,
  });
});
afterAll(async () => {
  await siteverify?.stop();
});

describe('settings', () => {
  it('has documented defaults', () => {
    const s = readBotCheckSettings({ NODE_ENV: 'development' });
    expect(s).toMatchObject({
      secret: null,
      verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
      minScore: 0.5,
      expectedAction: 'submit',
      expectedHostnames: [],
      timeoutMs: 3000,
      siteKey: null,
    });
  });

  it('reads every variable', () => {
    const s = readBotCheckSettings({
      RECAPTCHA_SECRET: 's3cret',
      RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/verify',
      RECAPTCHA_MIN_SCORE: '0.7',
      RECAPTCHA_EXPECTED_ACTION: 'contact',
      RECAPTCHA_EXPECTED_HOSTNAMES: 'Shop.Example, www.shop.example',
      RECAPTCHA_TIMEOUT_MS: '1500',
      PUBLIC_RECAPTCHA_SITE_KEY: 'site-key',
    });
    expect(s).toMatchObject({
      secret: 's3cret',
      minScore: 0.7,
      expectedAction: 'contact',
      expectedHostnames: ['shop.example', 'www.shop.example'],
      timeoutMs: 1500,
      siteKey: 'site-key',
    });
  });

  it('refuses bad values with the variable named', () => {
    expect(() => readBotCheckSettings({ RECAPTCHA_MIN_SCORE: '2' })).toThrow(/RECAPTCHA_MIN_SCORE/);
    expect(() => readBotCheckSettings({ RECAPTCHA_VERIFY_URL: 'ftp://example.com/x' })).toThrow(/RECAPTCHA_VERIFY_URL/);
  });

  it('uses reCAPTCHA in production when both its keys are set, and refuses half a setup with a clear error', () => {
    expect(
      readBotCheckSettings({ NODE_ENV: 'production', RECAPTCHA_SECRET: 'x', PUBLIC_RECAPTCHA_SITE_KEY: 'k' }),
    ).toMatchObject({ mode: 'recaptcha', secret: 'x' });
    expect(() => readBotCheckSettings({ NODE_ENV: 'production', RECAPTCHA_SECRET: 'x' })).toThrow(
      BotCheckSettingsError,
    );
    expect(() => readBotCheckSettings({ NODE_ENV: 'production', RECAPTCHA_SECRET: 'x' })).toThrow(
      /PUBLIC_RECAPTCHA_SITE_KEY: required in production/,
    );
    // Without reCAPTCHA keys production gets the self-hosted check (tests/api/bot-check-altcha.test.ts), never none.
    expect(readBotCheckSettings({ NODE_ENV: 'production', RECAPTCHA_SECRET: '' })).toMatchObject({
      mode: 'altcha',
      secret: null,
    });
    expect(() => readBotCheckSettings({ NODE_ENV: 'production', BOT_CHECK: 'off' })).toThrow(
      /BOT_CHECK: off is not allowed in production/,
    );
  });
});

describe('verifyBotToken against the siteverify stand-in', () => {
  it('accepts a genuine token with a good score and the expected action', async () => {
    const t = token('pass');
    const before = siteverify.requests.length;
    await expect(verifyBotToken(t, '203.0.113.7', { settings })).resolves.toEqual({
      ok: true,
      score: 0.9,
      skipped: false,
    });
    // Exactly what Google expects: one form-encoded POST with secret, response and remoteip.
    expect(siteverify.requests.slice(before)).toEqual([
      {
        method: 'POST',
        path: '/recaptcha/api/siteverify',
        contentType: 'application/x-www-form-urlencoded',
        secret: siteverify.secret,
        response: t,
        remoteip: '203.0.113.7',
      },
    ]);
  });

  it('leaves remoteip out when the address is unknown', async () => {
    const before = siteverify.requests.length;
    expect((await verifyBotToken(token('pass'), undefined, { settings })).ok).toBe(true);
    expect(siteverify.requests[before]!.remoteip).toBeNull();
  });

  it('refuses a score below the minimum', async () => {
    const result = await verifyBotToken(token('low-score'), null, { settings });
    expect(result).toMatchObject({ ok: false, reason: 'low-score' });
    // …and the minimum is the setting, not a constant.
    expect((await verifyBotToken(token('low-score'), null, { settings: { ...settings, minScore: 0.1 } })).ok).toBe(
      true,
    );
  });

  it('refuses a token made for another action', async () => {
    expect(await verifyBotToken(token('wrong-action'), null, { settings })).toMatchObject({
      ok: false,
      reason: 'wrong-action',
    });
  });

  it('refuses a token siteverify rejects, passing the error codes on', async () => {
    expect(await verifyBotToken(token('fail'), null, { settings })).toMatchObject({
      ok: false,
      reason: 'rejected',
      errorCodes: ['invalid-input-response'],
    });
    expect(await verifyBotToken('made-up-token', null, { settings })).toMatchObject({
      ok: false,
      reason: 'rejected',
      errorCodes: ['invalid-input-response'],
    });
  });

  it('refuses a token used twice (timeout-or-duplicate)', async () => {
    const t = token('pass');
    expect((await verifyBotToken(t, null, { settings })).ok).toBe(true);
    expect(await verifyBotToken(t, null, { settings })).toMatchObject({
      ok: false,
      reason: 'rejected',
      errorCodes: ['timeout-or-duplicate'],
    });
  });

  it('refuses when the secret is wrong (invalid-input-secret)', async () => {
    expect(
      await verifyBotToken(token('pass'), null, { settings: { ...settings, secret: 'not-the-secret' } }),
    ).toMatchObject({
      ok: false,
      reason: 'rejected',
      errorCodes: ['invalid-input-secret'],
    });
  });

  it('refuses a missing, empty or absurdly long token without asking siteverify', async () => {
    const before = siteverify.requests.length;
    for (const missing of [undefined, null, '', '   ', 'x'.repeat(10_000)]) {
      expect(await verifyBotToken(missing, null, { settings })).toMatchObject({ ok: false, reason: 'missing-token' });
    }
    expect(siteverify.requests.length).toBe(before);
  });

  it('checks the hostname when expected hostnames are configured', async () => {
    const strict = { ...settings, expectedHostnames: ['shop.example'] };
    expect(await verifyBotToken(token('pass'), null, { settings: strict })).toMatchObject({
      ok: false,
      reason: 'wrong-hostname',
    });
    siteverify.setOutcome('pass-on-shop', { success: true, score: 0.8, action: 'submit', hostname: 'shop.example' });
    expect(await verifyBotToken(token('pass-on-shop'), null, { settings: strict })).toEqual({
      ok: true,
      score: 0.8,
      skipped: false,
    });
  });

  it('refuses a v2-style answer without a score', async () => {
    siteverify.setOutcome('no-score', { success: true, action: 'submit' } as never);
    expect(await verifyBotToken(token('no-score'), null, { settings })).toMatchObject({
      ok: false,
      reason: 'low-score',
    });
  });
});

describe('verifyBotToken when siteverify cannot answer', () => {
  it('fails closed when nothing listens at the verify URL', async () => {
    const gone = await startRecaptchaServer();
    const url = gone.verifyUrl;
    await gone.stop();
    const result = await verifyBotToken(token('pass'), null, { settings: { ...settings, verifyUrl: url } });
    expect(result).toMatchObject({ ok: false, reason: 'unavailable' });
    if (!result.ok) expect(result.detail).toMatch(/could not be reached/);
  });

  it('gives up after the timeout instead of hanging', async () => {
    const slow = await startRecaptchaServer({ delayMs: 2000 });
    try {
      const started = Date.now();
      const result = await verifyBotToken(token('pass'), null, {
        settings: { ...settings, secret: slow.secret, verifyUrl: slow.verifyUrl, timeoutMs: 200 },
      });
      expect(result).toMatchObject({ ok: false, reason: 'unavailable' });
      if (!result.ok) expect(result.detail).toMatch(/within 200 ms/);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await slow.stop();
    }
  });

  it('fails closed on an HTTP error or a body that is not siteverify JSON', async () => {
    expect(
      await verifyBotToken(token('pass'), null, {
        settings: { ...settings, verifyUrl: siteverify.verifyUrl.replace('siteverify', 'nowhere') },
      }),
    ).toMatchObject({
      ok: false,
      reason: 'unavailable',
      detail: 'siteverify answered HTTP 404',
    });
    // A captive portal or proxy answering 200 with a page instead of siteverify's JSON.
    const portal = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in to the Wi-Fi</html>'),
    );
    await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(portal.address() as AddressInfo).port}/recaptcha/api/siteverify`;
      expect(await verifyBotToken(token('pass'), null, { settings: { ...settings, verifyUrl: url } })).toMatchObject({
        ok: false,
        reason: 'unavailable',
      });
    } finally {
      await new Promise((resolve) => portal.close(resolve));
    }
  });
});

describe('verification off (no secret)', () => {
  it('accepts every token in development and says so once', async () => {
    const log = vi.fn();
    const dev = readBotCheckSettings({ NODE_ENV: 'development', RECAPTCHA_VERIFY_URL: siteverify.verifyUrl });
    const before = siteverify.requests.length;
    expect(await verifyBotToken('anything', null, { settings: dev, log })).toEqual({
      ok: true,
      score: null,
      skipped: true,
    });
    expect(await verifyBotToken(undefined, null, { settings: dev, log })).toEqual({
      ok: true,
      score: null,
      skipped: true,
    });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith('reCAPTCHA verification is off (RECAPTCHA_SECRET is not set)');
    expect(siteverify.requests.length).toBe(before);
  });

  it('accepts in test as in development', async () => {
    const log = vi.fn();
    expect((await verifyBotToken('x', null, { settings: readBotCheckSettings({ NODE_ENV: 'test' }), log })).ok).toBe(
      true,
    );
    expect(log).toHaveBeenCalledOnce();
  });

  it('refuses in production even with settings built by hand', async () => {
    const log = vi.fn();
    const prod: BotCheckSettings = {
      ...readBotCheckSettings({ NODE_ENV: 'production', RECAPTCHA_SECRET: 'x', PUBLIC_RECAPTCHA_SITE_KEY: 'k' }),
      secret: null,
    };
    expect(await verifyBotToken(token('pass'), null, { settings: prod, log })).toMatchObject({
      ok: false,
      reason: 'not-configured',
    });
    expect(log).not.toHaveBeenCalled();
  });
});
