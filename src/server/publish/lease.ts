/**
 * Keeping the publish lease while a build runs (state.ts holds it in the database).
 *
 * A heartbeat renews the lease every `heartbeatMs`. Two things end the run's claim:
 *
 * - the database answers that another run holds the lease (this one's expired and someone took over);
 * - the database has not confirmed the lease for two thirds of `leaseMs`: another process may take it over
 *   once LEASE_MS passed since the last confirmed heartbeat, so the run stops before that can happen.
 *
 * Either way `onLost` is told why (the publisher stops the build), and `confirm()` refuses from then on.
 * `confirm()` also renews the lease on the spot: right after it, no other publisher can take over for
 * `leaseMs`, which is what makes switching `current` and pruning old builds safe. Failed heartbeats are
 * logged with errorSummary (no statement parameters, no quoted values).
 */
import type { Database } from '../db/connection.ts';
import { errorSummary } from '../error-summary.ts';
import { heartbeat, LEASE_MS } from './state.ts';

export class PublishLeaseLostError extends Error {
  override name = 'PublishLeaseLostError';
}

export type LeaseKeeperOptions = {
  db: Database;
  runId: string;
  /** The run's log tail, stored with every heartbeat. */
  logTail: () => string[];
  log: (line: string) => void;
  onLost: (error: PublishLeaseLostError) => void;
  heartbeatMs: number;
  leaseMs?: number;
};

export class LeaseKeeper {
  private confirmedAt = Date.now();
  private lost: PublishLeaseLostError | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private failures = 0;

  constructor(private readonly options: LeaseKeeperOptions) {}

  /** Heartbeats from now on, one at a time (a slow database never piles them up). */
  start(): void {
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Renew the lease now; throws PublishLeaseLostError when it is gone, or the database's error. */
  async confirm(): Promise<void> {
    if (this.lost) throw this.lost;
    const held = await heartbeat(this.options.db, this.options.runId, this.options.logTail());
    if (!held) throw this.lose('another publish took over the publish lease');
    this.confirmedAt = Date.now();
  }

  private schedule(): void {
    if (this.stopped || this.lost) return;
    this.timer = setTimeout(() => void this.beat().finally(() => this.schedule()), this.options.heartbeatMs);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    const { db, runId, logTail, log } = this.options;
    const leaseMs = this.options.leaseMs ?? LEASE_MS;
    try {
      const held = await heartbeat(db, runId, logTail());
      if (this.stopped) return;
      if (!held) {
        this.lose('another publish took over the publish lease');
        return;
      }
      if (this.failures) log(`the publish lease is renewed again after ${this.failures} failed attempt(s)`);
      this.failures = 0;
      this.confirmedAt = Date.now();
    } catch (err) {
      if (this.stopped) return;
      this.failures++;
      const unconfirmedMs = Date.now() - this.confirmedAt;
      log(
        `could not renew the publish lease (${errorSummary(err)}); unconfirmed for ${Math.round(unconfirmedMs / 1000)} s`,
      );
      if (unconfirmedMs > (leaseMs * 2) / 3)
        this.lose(
          `the database did not confirm the publish lease for ${Math.round(unconfirmedMs / 1000)} s, so another publish may take it over`,
        );
    }
  }

  private lose(reason: string): PublishLeaseLostError {
    if (!this.lost) {
      this.lost = new PublishLeaseLostError(`${reason}; this publish stopped and the live site was left as it is`);
      this.stop();
      this.options.onLost(this.lost);
    }
    return this.lost;
  }
}
