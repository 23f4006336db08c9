// Group commit of session writes (src/server/session/write-batch.ts): concurrent writes go out as one
// statement, every caller is answered only after its row is in the table, the later of two writes of one
// session wins, and a row the database refuses fails only its own caller. The batch is plain SQL, so it
// runs on both databases; the engine uses it on PGlite only (where it is wired into SessionService).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionWriteBatch } from '../../src/server/session/write-batch.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { operation, productId, setStock, Shopper } from './shop-helpers.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const expiresAt = () => new Date(Date.now() + 3_600_000);

async function rows(prefix: string): Promise<Map<string, unknown>> {
  const r = await t.engine.database.db.execute(
    sql`select customer_id, data from sessions where customer_id like ${`${prefix}%`}`,
  );
  const list = ((r as unknown as { rows?: unknown[] }).rows ?? (r as unknown as unknown[])) as {
    customer_id: string;
    data: unknown;
  }[];
  return new Map(list.map((row) => [row.customer_id, row.data]));
}

describe('SessionWriteBatch', () => {
  it('writes concurrent sessions in one statement and answers each caller after its row is stored', async () => {
    const batch = new SessionWriteBatch(t.engine.database.db);
    const ids = Array.from({ length: 30 }, (_, i) => `t_batch_a_${i}`);
    await Promise.all(
      ids.map((id, i) => batch.write({ customerId: id, json: JSON.stringify({ n: i }), expiresAt: expiresAt() })),
    );
    expect(batch.stats).toEqual({ statements: 1, rows: 30 });
    const stored = await rows('t_batch_a_');
    expect(stored.size).toBe(30);
    ids.forEach((id, i) => {
      expect(stored.get(id)).toEqual({ n: i });
    });
  });

  it('keeps the later of two writes of one session in the same batch, and answers both', async () => {
    const batch = new SessionWriteBatch(t.engine.database.db);
    const first = batch.write({ customerId: 't_batch_b', json: '{"v":"first"}', expiresAt: expiresAt() });
    const second = batch.write({ customerId: 't_batch_b', json: '{"v":"second"}', expiresAt: expiresAt() });
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
    expect((await rows('t_batch_b')).get('t_batch_b')).toEqual({ v: 'second' });
    expect(batch.stats.rows).toBe(1);
  });

  it('updates a stored session in place', async () => {
    const batch = new SessionWriteBatch(t.engine.database.db);
    await batch.write({ customerId: 't_batch_c', json: '{"v":1}', expiresAt: expiresAt() });
    await batch.write({ customerId: 't_batch_c', json: '{"v":2}', expiresAt: expiresAt() });
    expect((await rows('t_batch_c')).get('t_batch_c')).toEqual({ v: 2 });
  });

  it('fails only the caller whose row the database refuses; the others are stored', async () => {
    const batch = new SessionWriteBatch(t.engine.database.db);
    // jsonb refuses the NUL character: that row cannot be stored.
    const bad = batch.write({ customerId: 't_batch_d_bad', json: '{"v":"\\u0000"}', expiresAt: expiresAt() });
    const good = ['t_batch_d_1', 't_batch_d_2'].map((id) =>
      batch.write({ customerId: id, json: `{"id":"${id}"}`, expiresAt: expiresAt() }),
    );
    await expect(bad).rejects.toThrow();
    await expect(Promise.all(good)).resolves.toEqual([undefined, undefined]);
    const stored = await rows('t_batch_d_');
    expect([...stored.keys()].sort()).toEqual(['t_batch_d_1', 't_batch_d_2']);
  });
});

describe('cart mutations through the engine', () => {
  it('50 shoppers adding at once: every cart holds exactly what its shopper added, in the cache and in the table', async () => {
    const add = operation('addToCart');
    await setStock(t, 'omni-antenna', 500);
    const id = await productId(t, 'omni-antenna');
    const shoppers = Array.from({ length: 50 }, () => new Shopper(t));
    await Promise.all(shoppers.map((s) => s.ok(add, { productId: id, quantity: 1 })));
    await Promise.all(shoppers.map((s, i) => s.ok(add, { productId: id, quantity: (i % 3) + 1 })));
    for (const [i, s] of shoppers.entries()) {
      const v = await t.engine.sessions.verify(s.token!);
      if (!('customerId' in v)) throw new Error(v.error);
      const r = await t.engine.database.db.execute(sql`select data from sessions where customer_id = ${v.customerId}`);
      const list = ((r as unknown as { rows?: unknown[] }).rows ?? (r as unknown as unknown[])) as {
        data: { cart: { items: { quantity: number }[] } };
      }[];
      expect(list[0]!.data.cart.items[0]!.quantity).toBe(1 + (i % 3) + 1);
      expect((await t.engine.sessions.load(v.customerId)).cart).toEqual(list[0]!.data.cart);
    }
  });
});
