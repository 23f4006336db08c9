/**
 * Rows of a statement run with `db.execute(sql…)`, for the few queries the query builder cannot say
 * (upserts with computed windows, jsonb_each over sessions). node-postgres and PGlite both answer with a
 * `{ rows }` result; drizzle types it loosely because its drivers differ, so the row shape is the
 * caller's to state, as the SQL's column list decides it.
 */
import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from './connection.ts';

export async function selectRows<Row>(db: DbOrTx, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as { rows?: Row[] };
  if (!Array.isArray(result.rows)) throw new Error('the database answered a statement without rows');
  return result.rows;
}
