/**
 * The translation status on the site, over HTTP (Astro's dev server in this process, on the test engine):
 * /admin/translations is for shop managers only and lists, per language, the translations older than their
 * English original with links and the date of the English change; a stale translated page shows the
 * "may be out of date" notice in its language with a link to the English original, and an up-to-date one
 * does not.
 *
 * The status comes from real git history: a scratch repository holds the LED codes article and its German
 * translation, then an English change; `npm run content:status -- --json` there makes the report, which the
 * build takes through TRANSLATION_STATUS_FILE (as a build without git history would).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dev } from 'astro';
import { adminServiceFor } from '../../src/server/admin/service.ts';
import type { TranslationReport } from '../../src/lib/content/translation-status.ts';
import { newCustomer, register } from './accounts-helpers.ts';
import { startTestEngine, type TestEngine } from './harness.ts';

/** One of the ports given to this test area (5100–5109). */
const PORT = Number(process.env.ADMIN_WEB_TRANSLATIONS_TEST_PORT ?? 5103);
const BASE = `http://127.0.0.1:${PORT}`;
const ROOT = path.resolve(import.meta.dirname, '../..');
const ARTICLE = 'support/troubleshooting/led-codes';
/** When the English article changed in the scratch repository (a fixed date, so the page can name it). */
const ENGLISH_CHANGE = Date.UTC(2026, 2, 14, 10, 0, 0);

let t: TestEngine;
let server: Awaited<ReturnType<typeof dev>>;
let manager: Awaited<ReturnType<typeof register>>;
let customer: Awaited<ReturnType<typeof register>>;
let cookie = '';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-admin-translations-'));
const dataDir = path.join(tmp, 'data');
const statusFile = path.join(tmp, 'translation-status.json');
const savedStatusFile = process.env.TRANSLATION_STATUS_FILE;

/** The report of a scratch repository where the English LED codes article changed after its German translation. */
function staleReport(): TranslationReport {
  const repo = path.join(tmp, 'repo');
  const gitIn = (args: string[], when: number) => {
    const date = `@${Math.floor(when / 1000)} +0000`;
    execFileSync('git', ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.test', ...args], {
      cwd: repo,
      env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
  };
  for (const file of [`${ARTICLE}.mdx`, `${ARTICLE}.de_DE.mdx`]) {
    fs.mkdirSync(path.dirname(path.join(repo, 'content', file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'content', file), path.join(repo, 'content', file));
  }
  execFileSync('git', ['init', '-q'], { cwd: repo });
  gitIn(['add', '-A'], ENGLISH_CHANGE - 86_400_000);
  gitIn(['commit', '-qm', 'LED codes in English and German'], ENGLISH_CHANGE - 86_400_000);
  fs.appendFileSync(path.join(repo, 'content', `${ARTICLE}.mdx`), '\nA new paragraph about the blue LED.\n');
  gitIn(['commit', '-qam', 'The blue LED in the English LED codes'], ENGLISH_CHANGE);
  const out = execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(ROOT, 'scripts/content-status.ts'), '--json'],
    { cwd: repo, encoding: 'utf8' },
  );
  return JSON.parse(out) as TranslationReport;
}

beforeAll(async () => {
  const report = staleReport();
  // The scratch history really makes the German article stale (and nothing else), before any page is asked.
  expect(report.history).toBe('git');
  expect(report.collections.flatMap((c) => c.stale.map((s) => s.translation))).toEqual([`${ARTICLE}.de_DE.mdx`]);
  fs.writeFileSync(statusFile, JSON.stringify(report));

  Object.assign(process.env, {
    MESHFRONT_DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    TRANSLATION_STATUS_FILE: statusFile,
  });
  t = await startTestEngine({ env: { MESHFRONT_DATA_DIR: dataDir } });
  (globalThis as Record<symbol, unknown>)[Symbol.for('meshfront.sharedEngine')] = Promise.resolve(t.engine);
  manager = await register(t, newCustomer('transmanager'), { 'x-forwarded-for': '198.51.100.41' });
  await adminServiceFor(t.engine).roles.setRole(manager.userId, 'shop_manager');
  customer = await register(t, newCustomer('transshopper'), { 'x-forwarded-for': '198.51.100.42' });
  // Astro's dev server leaves routing to the test runner when it sees VITEST; here it must serve the pages.
  const vitest = process.env.VITEST;
  delete process.env.VITEST;
  try {
    server = await dev({ root: ROOT, server: { port: PORT, host: '127.0.0.1' }, logLevel: 'error' });
  } finally {
    process.env.VITEST = vitest;
  }
  const login = await post('/admin/login', { username: manager.username, password: manager.password, next: '/admin' });
  expect(login.status).toBe(303);
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  expect(cookie).toMatch(/^meshfront_admin=/);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await t?.close();
  if (savedStatusFile === undefined) delete process.env.TRANSLATION_STATUS_FILE;
  else process.env.TRANSLATION_STATUS_FILE = savedStatusFile;
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function get(p: string, withCookie = cookie): Promise<Response> {
  return fetch(BASE + p, { headers: withCookie ? { cookie: withCookie } : {}, redirect: 'manual' });
}

function post(p: string, fields: Record<string, string>): Promise<Response> {
  return fetch(BASE + p, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { origin: BASE },
    redirect: 'manual',
  });
}

const text = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('/admin/translations', () => {
  it('sends a visitor without an operator login to the login, and gives a customer no admin login', async () => {
    const anonymous = await get('/admin/translations', '');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`/admin/login?next=${encodeURIComponent('/admin/translations')}`);
    expect(await anonymous.text()).not.toContain('led-codes');

    const refused = await post('/admin/login', {
      username: customer.username,
      password: customer.password,
      next: '/admin/translations',
    });
    expect(refused.status).not.toBe(303);
    expect(refused.headers.get('set-cookie') ?? '').not.toMatch(/meshfront_admin=[^;]/);
  });

  it('lists the stale German article with both links and the date of the English change', async () => {
    const r = await get('/admin/translations');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    const html = await r.text();
    expect(html).toMatch(/<a href="\/admin\/translations"[^>]*aria-current="page"/);
    const german = /<section[^>]*data-locale="de_DE"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    const row = new RegExp(
      `<tr[^>]*data-translation="${ARTICLE}.de_DE.mdx"[^>]*data-state="stale"[\\s\\S]*?</tr>`,
    ).exec(german)?.[0];
    expect(row, 'the German section lists the LED codes article as stale').toBeTruthy();
    expect(row).toContain(`href="/${ARTICLE}"`);
    expect(row).toContain(`href="/de/${ARTICLE}"`);
    expect(text(row!)).toContain('Out of date');
    expect(text(row!)).toContain('2026-03-14');
    // The French translation was not in the scratch history: listed as missing, not as stale.
    const french = /<section[^>]*data-locale="fr_FR"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(french).toContain(`data-translation="${ARTICLE}.fr_FR.mdx" data-state="missing"`);
    expect(french).not.toContain('data-state="stale"');
  });
});

describe('the "may be out of date" notice', () => {
  it('shows on the stale German article, in German, with a link to the English original', async () => {
    const r = await get(`/de/${ARTICLE}`, '');
    expect(r.status).toBe(200);
    const html = await r.text();
    const notice = /<div[^>]*data-translation-outdated[\s\S]*?<\/div>\s*<\/div>/.exec(html)?.[0];
    expect(notice, 'the notice is on the page').toBeTruthy();
    expect(text(notice!)).toContain('Diese Übersetzung ist möglicherweise nicht mehr aktuell');
    expect(text(notice!)).toContain('Das englische Original wurde am 14. März 2026 geändert');
    expect(notice).toMatch(new RegExp(`<a href="/${ARTICLE}/?"[^>]*hreflang="en"`));
    expect(text(notice!)).toContain('Englisches Original lesen');
    expect(html).not.toContain('data-not-translated');
  });

  it('is not on an up-to-date translation or on the English original', async () => {
    for (const p of [`/es/${ARTICLE}`, `/${ARTICLE}`, '/de/support/troubleshooting/factory-reset']) {
      const r = await get(p, '');
      expect(r.status, p).toBe(200);
      expect(await r.text(), p).not.toContain('data-translation-outdated');
    }
  });
});
