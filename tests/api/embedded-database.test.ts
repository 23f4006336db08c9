// The embedded database has one writer: the shop process (scripts/start.mjs, here serving a stand-in
// build whose routes are the real ones; and `npm run api`) holds its lock, and `npm run shop` beside it
// runs its commands inside the shop over the loopback control channel. Checked with real processes on
// one data directory:
// - the CLI changes stock that the shop shows at once, and an order the shop takes meanwhile is still
//   there after a restart (before, the CLI opened the database a second time and the two overwrote
//   each other);
// - a second process on the database stops at once naming the holder; a SIGKILLed holder blocks nothing;
// - a clean restart (SIGTERM, SIGINT) keeps order numbers and user ids consecutive (before, npm start
//   exited without closing the database and PostgreSQL's pre-logged sequence values showed as a jump of 33);
// - backup while the shop runs → wipe → restore gives the orders, customers and stock back; restore
//   refuses while the shop runs;
// - the control channel refuses a missing or wrong token, other peers than loopback, and the public port.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { DatabaseLockedError, lockDatabaseDir } from '../../src/server/db/data-dir-lock.ts';
import { createEngine } from '../../src/server/engine/index.ts';
import { acceptToken, readCredential } from '../../src/server/local-control/credential.ts';
import { handleLocalCommand } from '../../src/server/local-control/endpoint.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/db.ts';
import { FIXTURE_CATALOG } from './harness.ts';
import { BILLING, operation } from './shop-helpers.ts';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const ROOT = path.resolve(import.meta.dirname, '../..');
const LOADER = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

let db: TestDatabase;
let env: Record<string, string>;
let dbDir: string;

/** A stand-in for Astro's server bundle: its handler serves the real GraphQL and local-command routes. */
function writeStandInBuild(dir: string): void {
  fs.mkdirSync(path.join(dir, 'client'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'server'), { recursive: true });
  const route = (file: string) => JSON.stringify(pathToFileURL(path.join(ROOT, 'src/pages', file)).href);
  fs.writeFileSync(
    path.join(dir, 'server', 'entry.mjs'),
    `import { Readable } from 'node:stream';
const routes = { '/graphql': () => import(${route('graphql.ts')}), '/api/admin/local-command': () => import(${route('api/admin/local-command.ts')}) };
export async function handler(req, res) {
  const url = new URL(req.url, 'http://shop.test');
  const load = routes[url.pathname];
  if (!load) return void res.writeHead(404).end();
  const module = await load();
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Readable.toWeb(req);
  const request = new Request(url, { method: req.method, headers: req.headers, body, duplex: 'half' });
  const response = await module[req.method]({ request, url, clientAddress: req.socket.remoteAddress });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
}
`,
  );
}

type Shop = { child: ChildProcess; port: number; log: () => string; exited: Promise<number | null> };

/** `npm start` (scripts/start.mjs on the stand-in build) or `npm run api`, listening on an ephemeral port. */
function startShop(kind: 'start' | 'api'): Promise<Shop> {
  const script = kind === 'start' ? 'scripts/start.mjs' : 'src/server/http/standalone.ts';
  const { npm_lifecycle_event: _event, ...inherited } = process.env;
  // Node with tsx as a loader (not the tsx CLI, a second process): signals must reach the shop itself.
  const child = spawn(process.execPath, ['--import', LOADER, path.join(ROOT, script)], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /serving on http:\/\/localhost:(\d+)|GraphQL API on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1] ?? m[2]), log: () => out, exited });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    void exited.then((code) => reject(new Error(`${script} exited (${code}) before listening:\n${out}`)));
  });
}

async function stopShop(shop: Shop, signal: NodeJS.Signals): Promise<number | null> {
  shop.child.kill(signal);
  return shop.exited;
}

/** `npm run shop -- …` (node with tsx, as npm runs it). */
function cli(args: string[], input?: string): Promise<{ code: number | null; out: string; err: string }> {
  const { npm_lifecycle_event: _event, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', LOADER, path.join(ROOT, 'src/server/cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...inherited, ...env, MESHFRONT_LOG_ERRORS: '0' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  child.stdin.end(input ?? '');
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err })));
}

async function gql<T = any>(
  port: number,
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = null,
): Promise<{ data: T; token: string | null }> {
  const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { 'woocommerce-session': `Session ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await r.json()) as { data: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(JSON.stringify(body.errors));
  return { data: body.data, token: r.headers.get('woocommerce-session') ?? token };
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const BRAVO = 'bravo-outdoor-gateway';
const stockQuery = `query { product(id: "${BRAVO}", idType: SLUG) { databaseId ... on SimpleProduct { stockQuantity } } }`;
const bravo = async (port: number) =>
  (await gql<{ product: { databaseId: number; stockQuantity: number } }>(port, stockQuery)).data.product;

/** A cash-on-delivery order of one Bravo gateway; its number. */
async function order(port: number, email: string): Promise<number> {
  const { databaseId } = await bravo(port);
  const added = await gql(port, operation('addToCart'), { productId: databaseId, quantity: 1 });
  const placed = await gql(
    port,
    operation('Checkout'),
    { paymentMethod: 'cod', billing: { ...BILLING, email } },
    added.token,
  );
  return placed.data.checkout.order.databaseId as number;
}

/** create-admin's new user id. */
async function newAdmin(name: string): Promise<number> {
  const r = await cli(
    ['create-admin', '--username', name, '--email', `${name}@example.test`, '--password-stdin'],
    'Correct-Horse-Battery-9',
  );
  expect(r.err).toBe('');
  return Number(/\(user (\d+)\)/.exec(r.out)![1]);
}

let shop: Shop;
/** The first order and shop manager (in the backup); `latestOrder` the newest order placed. */
const ids = { order: 0, user: 0 };
let latestOrder = 0;
let backupFile: string;

beforeAll(async () => {
  db = await createTestDatabase({ from: 'seeded' });
  dbDir = path.join(db.dataDir, 'db');
  writeStandInBuild(path.join(db.dataDir, 'stand-in-build'));
  env = {
    ...db.env,
    NODE_ENV: 'test',
    MESHFRONT_CATALOG_DIR: FIXTURE_CATALOG,
    MESHFRONT_SEED_ON_START: 'false',
    MESHFRONT_DIST_DIR: path.join(db.dataDir, 'stand-in-build'),
    SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    SESSION_ISSUER: 'http://meshfront.test',
    PASSWORD_SCRYPT_LOG2N: '12',
    ORDER_SWEEP_INTERVAL_MS: '0',
    PORT: '0',
    HOST: '127.0.0.1',
  };
  if (db.kind === 'pglite') shop = await startShop('start');
});

afterAll(async () => {
  if (shop && shop.child.exitCode === null && shop.child.signalCode === null) await stopShop(shop, 'SIGKILL');
  await db?.drop();
});

describe.skipIf(!!process.env.DATABASE_URL)('the embedded database while the shop runs', () => {
  it('runs the CLI inside the running shop: stock it sets shows at once, and an order taken meanwhile stays', async () => {
    expect((await bravo(shop.port)).stockQuantity).toBe(12);
    const set = await cli(['products', 'set-stock', 'FX-BRAVO', '50']);
    expect(set).toEqual({ code: 0, out: 'Bravo Outdoor Gateway (FX-BRAVO): stock 50.\n', err: '' });
    expect((await bravo(shop.port)).stockQuantity).toBe(50);

    ids.order = await order(shop.port, 'first.buyer@example.test');
    expect((await bravo(shop.port)).stockQuantity).toBe(49);
    const listed = await cli(['orders', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(new RegExp(`^${ids.order}\\s.*first\\.buyer@example\\.test`, 'm'));
    ids.user = await newAdmin('opsone');
    // The same exit codes and texts as in the CLI's own process: a usage error and a failure.
    expect(await cli(['orders'])).toMatchObject({ code: 2, err: expect.stringMatching(/^Say what to do: list, show/) });
    expect(await cli(['orders', 'show', '999999'])).toEqual({
      code: 1,
      out: '',
      err: 'shop orders: There is no order 999999.\n',
    });
    // Nothing of the commands' arguments or output in the shop's log.
    expect(shop.log()).toMatch(/local command orders from the shop CLI: exit 0/);
    expect(shop.log()).not.toMatch(/example\.test|FX-BRAVO/);
  });

  it('refuses a second process on the database at once, naming the shop', async () => {
    const started = Date.now();
    const second = await startShop('api').then(
      () => null,
      (err: Error) => err.message,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(second).toMatch(
      new RegExp(
        `exited \\(1\\)[\\s\\S]*The database in ${literal(dbDir)} is in use by process ${shop.child.pid} \\(node start\\.mjs, since `,
      ),
    );
    await expect(createEngine(loadConfig(env), { seed: false, log: () => {} })).rejects.toThrow(DatabaseLockedError);
  });

  it('takes a backup while the shop runs, and refuses a restore', async () => {
    backupFile = path.join(db.dataDir, 'backups', 'before.tar.gz');
    const backup = await cli(['backup', path.relative(ROOT, backupFile)]);
    expect(backup.err).toBe('');
    expect(backup.out).toMatch(new RegExp(`^Backed up the database to ${backupFile} \\(\\d+\\.\\d MB\\)\\.\\n$`));
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    const restore = await cli(['restore', backupFile]);
    expect(restore.code).toBe(1);
    expect(restore.err).toMatch(
      `shop restore: not while the shop is running (process ${shop.child.pid}, node start.mjs): a restore replaces the database`,
    );
    expect((await bravo(shop.port)).stockQuantity).toBe(49);
  });

  it('refuses a missing or wrong token, a peer other than loopback, and the public port', async () => {
    const credential = readCredential(db.dataDir)!;
    expect(credential).toMatchObject({
      pid: shop.child.pid,
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
    });
    expect(fs.statSync(path.join(db.dataDir, 'local-control.json')).mode & 0o777).toBe(0o600);
    const send = (url: string, token?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ argv: ['orders', 'list'], stdin: null, cwd: ROOT }),
      });
    expect((await send(credential.url)).status).toBe(401);
    expect((await send(credential.url, `${credential.token.slice(0, -1)}x`)).status).toBe(401);
    const publicUrl = `http://127.0.0.1:${shop.port}${new URL(credential.url).pathname}`;
    expect((await send(publicUrl, credential.token)).status).toBe(404);
    const right = await send(credential.url, credential.token);
    expect(right.status).toBe(200);
    expect((await right.text()).trim().split('\n').at(-1)).toBe('{"exit":0}');
    // The endpoint itself, for a peer the loopback listener never lets through.
    acceptToken('a-token-of-this-process');
    try {
      const request = (peer: string) =>
        handleLocalCommand(
          new Request('http://127.0.0.1/api/admin/local-command', {
            headers: { authorization: 'Bearer a-token-of-this-process' },
          }),
          peer,
          () => Promise.reject(new Error('no engine needed')),
        );
      expect((await request('192.0.2.7')).status).toBe(403);
      expect((await request('::ffff:203.0.113.9')).status).toBe(403);
      expect((await request('127.0.0.1')).status).toBe(503);
    } finally {
      acceptToken(null);
    }
  });

  it('keeps order numbers and user ids consecutive across a clean restart (SIGTERM and SIGINT)', async () => {
    let previous = ids;
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      expect(await stopShop(shop, signal)).toBe(0);
      // Let go of: the lock (its file emptied) and the channel's credential.
      expect(fs.readFileSync(`${dbDir}.lock`, 'utf8')).toBe('');
      expect(readCredential(db.dataDir)).toBeNull();
      shop = await startShop('start');
      const next = {
        order: await order(shop.port, `after.${signal}@example.test`),
        user: await newAdmin(`ops${signal}`),
      };
      expect(next).toEqual({ order: previous.order + 1, user: previous.user + 1 });
      previous = next;
    }
    const first = await cli(['orders', 'show', String(ids.order)]);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^Customer: Ada Lovelace <first\.buyer@example\.test> \(guest\)$/m);
    expect((await bravo(shop.port)).stockQuantity).toBe(47);
    latestOrder = previous.order;
  });

  it('starts again at once after the holder was killed (SIGKILL), without reusing an order number', async () => {
    await stopShop(shop, 'SIGKILL');
    shop = await startShop('api');
    const after = await order(shop.port, 'after.crash@example.test');
    expect(after).toBeGreaterThan(latestOrder);
    latestOrder = after;
    // The dead shop's credential was replaced: the CLI reaches this one.
    const listed = await cli(['orders', 'list', '--limit', '10']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(new RegExp(`^${after}\\s.*after\\.crash@example\\.test`, 'm'));
  });

  it('restores a backup into a wiped data directory: the orders, customers and stock of its time', async () => {
    expect(await stopShop(shop, 'SIGTERM')).toBe(0);
    // Held by another process (here this one): the CLI says which, and does nothing.
    const held = lockDatabaseDir(dbDir, 'a maintenance script');
    try {
      const refused = await cli(['orders', 'list']);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(
        `shop orders: The database in ${dbDir} is in use by process ${process.pid} (a maintenance script, since `,
      );
    } finally {
      held.release();
    }
    fs.rmSync(dbDir, { recursive: true, force: true });
    const notABackup = path.join(db.dataDir, 'notes.txt');
    fs.writeFileSync(notABackup, 'not a backup\n'.repeat(100));
    expect(await cli(['restore', notABackup])).toEqual({
      code: 1,
      out: '',
      err: `shop restore: ${notABackup} is not a backup of the shop (not a tarball)\n`,
    });
    const restored = await cli(['restore', backupFile]);
    expect(restored.err).toBe('');
    expect(restored.out).toBe(`Restored ${backupFile}: the shop has 1 order.\n`);
    // Over an existing database: that one is kept aside.
    const again = await cli(['restore', backupFile]);
    const aside = /^The database it replaced is in (.+); delete that once the shop runs well\.$/m.exec(again.out)?.[1];
    expect(aside).toMatch(new RegExp(`^${literal(dbDir)}\\.before-restore-\\d{8}T\\d{6}Z$`));
    expect(fs.existsSync(path.join(aside!, 'PG_VERSION'))).toBe(true);
    const engine = await createEngine(loadConfig(env), { seed: false, log: () => {} });
    try {
      expect((await engine.orders.get(ids.order))?.billing).toMatchObject({ email: 'first.buyer@example.test' });
      expect(await engine.orders.items(ids.order)).toMatchObject([{ sku: 'FX-BRAVO', quantity: 1 }]);
      expect(await engine.orders.get(latestOrder)).toBeNull();
      const snap = await engine.catalog.snapshot();
      expect(snap.productsBySlug.get(BRAVO)!.stockQuantity).toBe(49);
      expect((await engine.accounts.customers.findByLogin('opsone'))?.role).toBe('shop_manager');
      expect(await engine.accounts.customers.findByLogin('opsSIGTERM')).toBeNull();
    } finally {
      await engine.close();
    }
  });
});
