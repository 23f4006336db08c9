// The race across processes: two engine processes sharing one PostgreSQL database take 200 concurrent
// checkouts (separate sessions, spread over both processes) for a product with 20 in stock: exactly 20
// orders, stock 0, every other checkout refused with the out-of-stock message, and both processes then
// show the product out of stock. PostgreSQL only.
import type { ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_ENV, postGraphql, startEngineProcess } from './engine-processes.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, productId, setStock, stockOf } from './shop-helpers.ts';

const usePostgres = !!process.env.DATABASE_URL;
let t: TestEngine;
const children: ChildProcess[] = [];
const ports: number[] = [];

beforeAll(async () => {
  if (!usePostgres) return;
  t = await startTestEngine();
  const env = {
    ...t.database.env,
    ...PROCESS_ENV,
  };
  ports.push(...(await Promise.all([startEngineProcess(env, children), startEngineProcess(env, children)])));
}, 600_000);
afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await t?.close();
});

describe.skipIf(!usePostgres)('race across two engine processes (PostgreSQL)', () => {
  it('200 concurrent checkouts for 20 units over two processes: exactly 20 orders, stock 0', async () => {
    await setStock(t, 'search-only-adapter', 20);
    const id = await productId(t, 'search-only-adapter');
    const ADD = operation('addToCart');
    const CHECKOUT = operation('Checkout');
    const tokens: string[] = [];
    for (let i = 0; i < 200; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: 25 }, async (_, j) => {
          const r = await postGraphql(ports[(i + j) % 2]!, ADD, { productId: id, quantity: 1 }, null);
          if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
          return r.token!;
        }),
      );
      tokens.push(...batch);
    }
    // Each checkout goes to the other process than the one that filled its cart.
    const results = await Promise.all(
      tokens.map((token, i) =>
        postGraphql(
          ports[(i + 1) % 2]!,
          CHECKOUT,
          { paymentMethod: 'cod', billing: { ...BILLING, email: `p${i}@example.com` } },
          token,
        ),
      ),
    );
    const ok = results.filter((r) => !r.body.errors?.length);
    const failed = results.filter((r) => r.body.errors?.length);
    expect(ok).toHaveLength(20);
    expect(new Set(failed.map((r) => r.body.errors![0]!.message))).toEqual(
      new Set([
        'Sorry, "Search-only Adapter" is not in stock. Please edit your cart and try again. We apologize for any inconvenience caused.',
      ]),
    );
    expect(await stockOf(t, 'search-only-adapter')).toBe(0);
    const r = await t.engine.database.db.execute(
      sql`select count(*)::int as n from order_items where product_id = ${id}`,
    );
    expect(((r as any).rows ?? r)[0].n).toBe(20);
    // Each process's catalog follows the other's stock changes (it refreshes only the rows they stamped).
    const STOCK = `query { product(id: "search-only-adapter", idType: SLUG) { ... on SimpleProduct { stockQuantity stockStatus } } }`;
    for (const port of ports) {
      let shown: unknown;
      for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((r) => setTimeout(r, 100))) {
        shown = (await postGraphql(port, STOCK, {}, null)).body.data?.product;
        if ((shown as { stockStatus?: string })?.stockStatus === 'OUT_OF_STOCK') break;
      }
      expect(shown).toEqual({ stockQuantity: 0, stockStatus: 'OUT_OF_STOCK' });
    }
  }, 600_000);
});
