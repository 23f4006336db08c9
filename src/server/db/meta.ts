/**
 * Counters in the `meta` table. `catalog_version` is bumped by every catalog write (products, prices,
 * categories, reviews …) and `stock_version` by stock-only changes; each process compares them with the
 * versions its caches were built from (see catalog/snapshot.ts).
 */
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from './connection.ts';
import { meta } from './meta-tables.ts';

export type CounterKey = 'catalog_version' | 'stock_version';

export async function readCounters(db: DbOrTx, keys: CounterKey[]): Promise<Record<CounterKey, number>> {
  const rows = await db.select({ key: meta.key, value: meta.value }).from(meta).where(sql`${meta.key} in ${keys}`);
  const out = { catalog_version: 0, stock_version: 0 };
  for (const r of rows) out[r.key as CounterKey] = Number(r.value) || 0;
  return out;
}

/**
 * Increment a counter inside the caller's transaction, so the bump commits with the change it announces;
 * returns the new value. The counter's row stays locked until that commit, so concurrent bumps get their
 * values in commit order.
 */
export async function bumpCounter(db: DbOrTx, key: CounterKey): Promise<number> {
  const [row] = await db
    .insert(meta)
    .values({ key, value: sql`to_jsonb(1)` })
    .onConflictDoUpdate({
      target: meta.key,
      set: { value: sql`to_jsonb(((${meta.value})::text)::bigint + 1)`, updatedAt: sql`now()` },
    })
    .returning({ value: meta.value });
  // The static pages are stale from the first catalog change after a publish (src/server/publish/state.ts clears it).
  if (key === 'catalog_version')
    await db.insert(meta).values({ key: 'catalog_stale_since', value: sql`to_jsonb(now())` }).onConflictDoNothing();
  return Number(row!.value);
}

/** A key's value and when it was last set; `forUpdate` locks its row until the caller's transaction ends. */
export async function getMetaRow(
  db: DbOrTx,
  key: string,
  options: { forUpdate?: boolean } = {},
): Promise<{ value: unknown; updatedAt: Date } | undefined> {
  const query = db.select({ value: meta.value, updatedAt: meta.updatedAt }).from(meta).where(eq(meta.key, key));
  const [row] = await (options.forUpdate ? query.for('update') : query);
  return row;
}

export async function getMeta<T>(db: DbOrTx, key: string): Promise<T | undefined> {
  return (await getMetaRow(db, key))?.value as T | undefined;
}

/** Sets a key only when it has no value yet (a row to lock for the first writer). */
export async function initMeta(db: DbOrTx, key: string, value: unknown): Promise<void> {
  await db.insert(meta).values({ key, value }).onConflictDoNothing();
}

export async function deleteMeta(db: DbOrTx, key: string): Promise<void> {
  await db.delete(meta).where(eq(meta.key, key));
}

export async function setMeta(db: DbOrTx, key: string, value: unknown): Promise<void> {
  await db
    .insert(meta)
    .values({ key, value })
    .onConflictDoUpdate({ target: meta.key, set: { value, updatedAt: sql`now()` } });
}

/**
 * Whether this caller should do a periodic job now: true for at most one caller per `minGapMs` across all
 * processes on the database (a conditional upsert of the job's `meta` row: on PostgreSQL the row lock makes
 * concurrent claimers wait and then see the fresh time; PGlite has one writer).
 */
export async function claimPeriodicRun(db: DbOrTx, key: string, minGapMs: number): Promise<boolean> {
  const rows = await db
    .insert(meta)
    .values({ key, value: sql`to_jsonb(now()::text)` })
    .onConflictDoUpdate({
      target: meta.key,
      set: { value: sql`excluded.value`, updatedAt: sql`now()` },
      setWhere: sql`${meta.updatedAt} <= now() - make_interval(secs => ${minGapMs / 1000})`,
    })
    .returning({ key: meta.key });
  return rows.length > 0;
}
