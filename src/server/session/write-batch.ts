/**
 * Group commit for session writes on a single-process database (PGlite).
 *
 * PGlite runs every statement on one connection in this process's thread, and an autocommitted upsert
 * costs far more than its row: parsing, planning, the commit and its WAL flush are paid per statement.
 * Under load (50 shoppers adding to their carts) that per-statement price is the whole budget. So writes
 * that arrive while a batch is being written wait for it and then go out together as one multi-row
 * upsert — one statement, one commit — and every caller's promise settles only after that commit: the
 * durability of each write is the same as writing it alone (nothing is acknowledged before it is on
 * disk). The first write of a quiet moment waits only for the end of the current event-loop turn.
 *
 * Two writes of one session in one batch keep the later one (the table can take one row per key per
 * statement); both callers are answered when it is written. Within a session, writes are already
 * serialised by the session lock, so "later" is the order the service issued them.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';

export type SessionWrite = { customerId: string; json: string; expiresAt: Date };

type Waiting = SessionWrite & { resolve: () => void; reject: (err: unknown) => void };

/** Rows per statement; a larger queue is written in several statements of one flush. */
const MAX_ROWS_PER_STATEMENT = 200;

export class SessionWriteBatch {
  private queue: Waiting[] = [];
  private flushing = false;
  /** Statements written and rows in them (tests read them to see that writes were grouped). */
  readonly stats = { statements: 0, rows: 0 };

  /** A flush is due in the check phase of this event-loop turn (see `write`). */
  private scheduled = false;

  constructor(private readonly db: Database) {}

  /** Resolves once this write (or a later write of the same session in the same batch) is committed. */
  write(write: SessionWrite): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ ...write, resolve, reject });
      if (this.flushing || this.scheduled) return;
      // Not at once: requests whose bytes arrived in this turn of the event loop run on to their own
      // write in microtasks, so after this turn (setImmediate) they are all queued and go out together.
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.flush();
      });
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_ROWS_PER_STATEMENT);
        // The last write of each session in this batch wins.
        const latest = new Map<string, Waiting>();
        for (const w of batch) latest.set(w.customerId, w);
        try {
          await this.upsert([...latest.values()]);
          for (const w of batch) w.resolve();
        } catch (err) {
          // One bad row must not fail the others' writes: retry each alone, each caller gets its own answer.
          if (latest.size === 1) for (const w of batch) w.reject(err);
          else await this.oneByOne(batch, latest);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private async oneByOne(batch: Waiting[], latest: Map<string, Waiting>): Promise<void> {
    for (const [customerId, w] of latest) {
      const callers = batch.filter((b) => b.customerId === customerId);
      try {
        await this.upsert([w]);
        for (const c of callers) c.resolve();
      } catch (err) {
        for (const c of callers) c.reject(err);
      }
    }
  }

  private async upsert(rows: SessionWrite[]): Promise<void> {
    const values = sql.join(
      rows.map((r) => sql`(${r.customerId}, ${r.json}::jsonb, ${r.expiresAt.toISOString()}::timestamptz)`),
      sql`, `,
    );
    await this.db.execute(sql`
      insert into sessions (customer_id, data, expires_at) values ${values}
      on conflict (customer_id) do update set data = excluded.data, expires_at = excluded.expires_at, updated_at = now()`);
    this.stats.statements++;
    this.stats.rows += rows.length;
  }
}
