/**
 * Applies the committed SQL migrations (src/server/db/migrations/*.sql, written by drizzle-kit) in file
 * order, each once, recorded in `schema_migrations`. On PostgreSQL it holds a session advisory lock while
 * doing so, so several processes starting at once apply each migration exactly once.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatabaseHandle } from './connection.ts';

const MIGRATION_LOCK_KEY = 727_274_001; // arbitrary, constant: "meshfront migrations"

/**
 * Where the SQL files are: next to this module when running from source (tsx, vitest), else
 * ./src/server/db/migrations under the working directory (the Astro server bundle moves this module).
 */
export function migrationsDir(): string {
  const candidates = [
    process.env.MESHFRONT_MIGRATIONS_DIR,
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations'),
    path.resolve('src/server/db/migrations'),
  ].filter((d): d is string => !!d);
  const found = candidates.find((d) => fs.existsSync(path.join(d, '0000_init.sql')));
  if (!found)
    throw new Error(
      `Database migrations not found (looked in ${candidates.join(', ')}); set MESHFRONT_MIGRATIONS_DIR.`,
    );
  return found;
}

export type MigrationResult = { applied: string[] };

export async function migrate(handle: DatabaseHandle, dir = migrationsDir()): Promise<MigrationResult> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort();
  return handle.withRawClient(async (client) => {
    if (handle.kind === 'postgres') await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.exec(`create table if not exists schema_migrations (
        name text primary key,
        checksum text not null,
        applied_at timestamptz not null default now()
      )`);
      const done = new Map(
        (
          await client.query<{ name: string; checksum: string }>('select name, checksum from schema_migrations')
        ).rows.map((r) => [r.name, r.checksum]),
      );
      const applied: string[] = [];
      for (const file of files) {
        const text = fs.readFileSync(path.join(dir, file), 'utf8');
        const checksum = crypto.createHash('sha256').update(text).digest('hex');
        const previous = done.get(file);
        if (previous !== undefined) {
          if (previous !== checksum)
            console.warn(
              `[meshfront] migration ${file} changed after it was applied; committed migrations must not be edited.`,
            );
          continue;
        }
        const statements = text
          .split('--> statement-breakpoint')
          .map((s) => s.trim())
          .filter(Boolean);
        await client.exec('begin');
        try {
          for (const statement of statements) await client.exec(statement);
          await client.query('insert into schema_migrations (name, checksum) values ($1, $2)', [file, checksum]);
          await client.exec('commit');
        } catch (err) {
          await client.exec('rollback');
          throw new Error(`Migration ${file} failed: ${(err as Error).message}`);
        }
        applied.push(file);
      }
      return { applied };
    } finally {
      if (handle.kind === 'postgres') await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}
