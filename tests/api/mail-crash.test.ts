// The durable outbox under SIGKILL: engine processes (tests/fixtures/crash-engine.ts) take a burst of
// cash-on-delivery checkouts while the SMTP server (the local stand-in) accepts connections but never
// greets them, so no confirmation has gone out when every process is killed with SIGKILL. The processes
// start again with a working server: every acknowledged order's confirmation is then delivered exactly
// once, with the Message-ID it was queued with. Before the mail queue, the confirmation was sent from
// memory after the commit and these orders never got one, also after the restart.
//
// PGlite: one engine process. PostgreSQL (DATABASE_URL): two processes on one database, the orders spread
// over both, both restarted — each mail is taken by one sender (FOR UPDATE SKIP LOCKED).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markStockChanged } from '../../src/server/catalog/stock.ts';
import { loadConfig } from '../../src/server/config.ts';
import { createEngine } from '../../src/server/engine/index.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/db.ts';
import { startSmtpServer, type SmtpServer } from '../fixtures/smtp-server.ts';
import { ENGINE_START_TIMEOUT_MS, FIXTURE_CATALOG } from './harness.ts';
import { BILLING, operation } from './shop-helpers.ts';

const POSTGRES = !!process.env.DATABASE_URL;
const PROCESSES = POSTGRES ? 2 : 1;
const ORDERS = 12;
const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

let db: TestDatabase;
let smtp: SmtpServer;
let env: Record<string, string>;
let productId: number;

type EngineProcess = { child: ChildProcess; port: number; exited: Promise<unknown>; log: () => string };
const running: EngineProcess[] = [];

function startEngine(): Promise<EngineProcess> {
  return new Promise((resolve, reject) => {
    // Node with tsx as a loader, so the SIGKILL hits the engine itself (not a tsx CLI in front of it).
    const loader = pathToFileURL(path.resolve(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href;
    const child = spawn(
      process.execPath,
      ['--import', loader, path.resolve(import.meta.dirname, '../fixtures/crash-engine.ts')],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    const exited = new Promise((r) => child.on('exit', r));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        const p = { child, port: Number(m[1]), exited, log: () => err };
        running.push(p);
        resolve(p);
      }
    });
    child.stderr!.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code, signal) =>
      reject(new Error(`engine process exited (${code ?? signal}) before listening: ${err.slice(-2000)}`)),
    );
  });
}

async function gql(port: number, token: string | null, name: string, variables: Record<string, unknown>) {
  const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { 'woocommerce-session': `Session ${token}` } : {}),
    },
    body: JSON.stringify({ query: operation(name), variables }),
  });
  const body = (await r.json()) as { data?: any; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(`${name}: ${JSON.stringify(body.errors)}`);
  return { token: r.headers.get('woocommerce-session') ?? token, data: body.data };
}

beforeAll(async () => {
  db = await createTestDatabase({ from: 'seeded' });
  smtp = await startSmtpServer({ mode: 'hold' });
  env = {
    ...db.env,
    NODE_ENV: 'test',
    MESHFRONT_CATALOG_DIR: FIXTURE_CATALOG,
    SESSION_SECRET: SECRET,
    SESSION_ISSUER: 'http://meshfront.test',
    ORDER_SWEEP_INTERVAL_MS: '0',
    SMTP_URL: smtp.url(),
    MAIL_POLL_INTERVAL_MS: '200',
    MAIL_RETRY_BASE_MS: '200',
  };
  // Seed (PostgreSQL starts empty) and give the product enough stock in this process, then hand the data over.
  const engine = await createEngine(loadConfig({ ...env, MESHFRONT_SEED_ON_START: 'true' }), { log: () => {} });
  try {
    productId = (await engine.catalog.snapshot()).productsBySlug.get('omni-antenna')!.id;
    await engine.database.db.execute(
      sql`update catalog_products set manage_stock = true, stock_quantity = 1000, backorders = 'no' where id = ${productId}`,
    );
    await markStockChanged(engine.database.db, { productIds: [productId] });
  } finally {
    await engine.close();
  }
  env.MESHFRONT_SEED_ON_START = 'false';
}, ENGINE_START_TIMEOUT_MS);

afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await smtp?.stop();
  await db?.drop();
});

describe(`SIGKILL after the orders committed, before their confirmations went out (${POSTGRES ? 'PostgreSQL, two processes' : 'PGlite'})`, () => {
  it(
    'after the restart every acknowledged order gets its confirmation, exactly once',
    async () => {
      const first = await Promise.all(Array.from({ length: PROCESSES }, () => startEngine()));
      const acknowledged = await Promise.all(
        Array.from({ length: ORDERS }, async (_, i) => {
          const port = first[i % PROCESSES]!.port;
          const added = await gql(port, null, 'addToCart', { productId, quantity: 1 });
          const email = `outbox.crash${i}@example.test`;
          const placed = await gql(port, added.token, 'Checkout', {
            paymentMethod: 'cod',
            billing: { ...BILLING, email },
          });
          return { id: placed.data.checkout.order.databaseId as number, email };
        }),
      );
      expect(acknowledged).toHaveLength(ORDERS);
      // The server has not taken a single mail: the processes are still waiting for its greeting.
      expect(smtp.messages).toEqual([]);
      for (const p of first) p.child.kill('SIGKILL');
      await Promise.all(first.map((p) => p.exited));

      smtp.setMode('accept');
      const again = await Promise.all(Array.from({ length: PROCESSES }, () => startEngine()));
      const to = (email: string) => smtp.messages.filter((m) => m.envelope.to.includes(email));
      const until = Date.now() + 30_000;
      while (Date.now() < until && !acknowledged.every((o) => to(o.email).length > 0))
        await new Promise((r) => setTimeout(r, 50));
      // A little longer than a few polls: a second copy would have come by now.
      await new Promise((r) => setTimeout(r, 1000));

      const missing = acknowledged.filter((o) => to(o.email).length === 0);
      expect(
        missing.map((o) => o.id),
        `${missing.length} of ${ORDERS} acknowledged orders got no confirmation`,
      ).toEqual([]);
      for (const o of acknowledged) {
        const got = to(o.email);
        expect(got, `order ${o.id}`).toHaveLength(1);
        expect(got[0]!.subject).toContain(String(o.id));
      }
      for (const p of again) p.child.kill('SIGTERM');
      await Promise.all(again.map((p) => p.exited));
      for (const p of [...first, ...again]) expect(p.log()).not.toMatch(/outbox\.crash\d+@example\.test/);

      // The queue's rows: each sent once, on its first recorded attempt (the killed ones never counted),
      // with the Message-ID the delivered copy carries.
      const engine = await createEngine(loadConfig({ ...env, MAIL_POLL_INTERVAL_MS: '60000' }), { log: () => {} });
      try {
        const r = await engine.database.db.execute(
          sql`select idempotency_key, status, attempts, message_id from mail_queue where kind = 'order-confirmation'`,
        );
        const rows = ((r as { rows?: Record<string, any>[] }).rows ?? (r as unknown as Record<string, any>[])).filter(
          (row) => acknowledged.some((o) => row.idempotency_key === `order-confirmation:${o.id}`),
        );
        expect(rows).toHaveLength(ORDERS);
        for (const row of rows) {
          expect(row).toMatchObject({ status: 'sent', attempts: 1 });
          const o = acknowledged.find((x) => row.idempotency_key === `order-confirmation:${x.id}`)!;
          expect(to(o.email)[0]!.headers['message-id']).toEqual([row.message_id]);
        }
      } finally {
        await engine.close();
      }
    },
    ENGINE_START_TIMEOUT_MS * 2,
  );
});
