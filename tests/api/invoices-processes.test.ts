// Invoice numbers across two engine processes on one PostgreSQL database: 50 cash-on-delivery checkouts
// at once, sent to both processes in turn, get the invoice numbers 1 … 50 of the year, no gap and no
// duplicate (the yearly counter row is taken in each order's own transaction).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, productId, setStock } from './shop-helpers.ts';

const usePostgres = !!process.env.DATABASE_URL;
let t: TestEngine;

/** The rows of a query (drizzle's execute answers differ between PGlite and pg; both carry `rows`). */
async function rowsOf<T>(query: SQL): Promise<T[]> {
  return ((await t.engine.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}
const children: ChildProcess[] = [];
const ports: number[] = [];

function startProcess(env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const tsx = path.resolve(import.meta.dirname, '../../node_modules/.bin/tsx');
    const child = spawn(tsx, [path.resolve(import.meta.dirname, '../fixtures/engine-process.ts')], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`engine process exited (${code}): ${err.slice(-2000)}`)));
  });
}

beforeAll(async () => {
  if (!usePostgres) return;
  t = await startTestEngine();
  // Before the processes start, so their first catalog snapshot has the stock.
  await setStock(t, 'n-type-cable', 1000);
  const env = {
    ...t.database.env,
    SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    SESSION_ISSUER: 'http://meshfront.test',
    DATABASE_POOL_SIZE: '10',
    ORDER_SWEEP_INTERVAL_MS: '0',
    CHECKOUT_ORDERS_PER_IP_PER_HOUR: '1000',
    CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR: '1000',
  };
  ports.push(...(await Promise.all([startProcess(env), startProcess(env)])));
}, 600_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await t?.close();
});

async function post(port: number, query: string, variables: Record<string, unknown>, token: string | null) {
  const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { 'woocommerce-session': `Session ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return {
    token: r.headers.get('woocommerce-session') ?? token,
    body: (await r.json()) as { data?: any; errors?: { message: string }[] },
  };
}

describe.skipIf(!usePostgres)('invoice numbers across two engine processes (PostgreSQL)', () => {
  it('50 concurrent checkouts over two processes: invoices 1 … 50, one per order, no gap, no duplicate', async () => {
    const id = await productId(t, 'n-type-cable');
    const tokens = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const r = await post(ports[i % 2]!, operation('addToCart'), { productId: id, quantity: 1 }, null);
        if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
        return r.token!;
      }),
    );
    const results = await Promise.all(
      tokens.map((token, i) =>
        post(
          ports[(i + 1) % 2]!,
          operation('Checkout'),
          { paymentMethod: 'cod', billing: { ...BILLING, email: `inv${i}@example.com` } },
          token,
        ),
      ),
    );
    expect(results.filter((r) => r.body.errors?.length).map((r) => r.body.errors![0]!.message)).toEqual([]);
    const orderIds = results.map((r) => r.body.data.checkout.order.databaseId as number);
    const rows = await rowsOf<{ order_id: number; sequence: number; number: string; year: number }>(
      sql`select order_id, sequence, number, year from invoices where kind = 'invoice' order by sequence`,
    );
    expect(rows.map((r) => Number(r.sequence))).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(rows.map((r) => r.number)).toEqual(rows.map((r) => `${r.year}-${String(r.sequence).padStart(6, '0')}`));
    expect(new Set(rows.map((r) => Number(r.order_id)))).toEqual(new Set(orderIds));
    const counter = await rowsOf<{ last_number: number }>(
      sql`select last_number from invoice_counters where series = 'invoice'`,
    );
    expect(counter.map((c) => Number(c.last_number))).toEqual([50]);
  });
});
