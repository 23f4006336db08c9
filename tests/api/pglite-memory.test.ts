// The embedded database's buffer pool (src/server/db/connection.ts): PGlite opens with a 32MB pool rather
// than PostgreSQL's 128MB, which it zeroes inside the WASM heap at start (~100 MB of resident
// memory for buffers an engine never filled). Tables larger than the pool must still read back whole and
// unchanged, through the pages that no longer fit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/db.ts';

let database: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await openDatabase(
    loadConfig({
      NODE_ENV: 'test',
      SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
      ...database.env,
    }).database,
  );
}, 180_000); // opening an embedded database is slow on a busy machine

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe.skipIf(!!process.env.DATABASE_URL)('PGlite buffer pool', () => {
  it('opens with a 32MB buffer pool', async () => {
    const shown = await handle.withRawClient((c) => c.query<{ shared_buffers: string }>('show shared_buffers'));
    expect(shown.rows[0]!.shared_buffers).toBe('32MB');
  });

  it('reads back a table larger than the pool unchanged', async () => {
    await handle.withRawClient(async (c) => {
      await c.exec(`create table pool_overflow (id int primary key, body text not null)`);
      // 40,000 rows of ~1 KB (stored uncompressed): about 45 MB of heap pages, more than the pool holds.
      await c.exec(`insert into pool_overflow select i, repeat(md5(i::text), 32) from generate_series(1, 40000) as i`);
      const size = await c.query<{ bytes: string }>(`select pg_relation_size('pool_overflow')::text as bytes`);
      expect(Number(size.rows[0]!.bytes)).toBeGreaterThan(32 * 1024 * 1024);
      // Two full passes: the second one finds the first pages evicted by the last ones.
      for (let pass = 0; pass < 2; pass++) {
        const r = await c.query<{ rows: number; bad: number; total: string }>(
          `select count(*)::int as rows, count(*) filter (where body <> repeat(md5(id::text), 32))::int as bad, sum(length(body))::text as total from pool_overflow`,
        );
        expect(r.rows[0]).toEqual({ rows: 40000, bad: 0, total: String(40000 * 32 * 32) });
      }
    });
  }, 120_000);
});
