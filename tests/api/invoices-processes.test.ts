// Invoice numbers across two engine processes on one PostgreSQL database: 50 cash-on-delivery checkouts
// at once, sent to both processes in turn, get the invoice numbers 1 … 50 of the year, no gap and no
// duplicate (the yearly counter row is taken in each order's own transaction).
import type { ChildProcess } from 'node:child_process';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_ENV, postGraphql, startEngineProcess } from './engine-processes.ts';
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

beforeAll(async () => {
  if (!usePostgres) return;
  t = await startTestEngine();
  // Before the processes start, so their first catalog snapshot has the stock.
  await setStock(t, 'n-type-cable', 1000);
  const env = {
    ...t.database.env,
    ...PROCESS_ENV,
    CHECKOUT_ORDERS_PER_IP_PER_HOUR: '1000',
    CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR: '1000',
  };
  ports.push(...(await Promise.all([startEngineProcess(env, children), startEngineProcess(env, children)])));
}, 600_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await t?.close();
});

describe.skipIf(!usePostgres)('invoice numbers across two engine processes (PostgreSQL)', () => {
  it('50 concurrent checkouts over two processes: invoices 1 … 50, one per order, no gap, no duplicate', async () => {
    const id = await productId(t, 'n-type-cable');
    const tokens = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const r = await postGraphql(ports[i % 2]!, operation('addToCart'), { productId: id, quantity: 1 }, null);
        if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
        return r.token!;
      }),
    );
    const results = await Promise.all(
      tokens.map((token, i) =>
        postGraphql(
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
