/**
 * The retention sweep: deletes what the shop may no longer keep or no longer needs, each kind through the
 * domain that owns it (sessions, logins and keys, rate-limit windows, contact messages, unconfirmed
 * newsletter sign-ups, the mail outbox). Every process starts it; one per interval does the work (a claim on
 * the database), so several engines on one PostgreSQL do not sweep the same rows at once.
 */
import type { Database } from '../db/connection.ts';
import { claimPeriodicRun } from '../db/meta.ts';
import type { AuthService } from '../auth/service.ts';
import { deleteOldContactMessages } from '../contact/retention.ts';
import type { MailQueue } from '../mail/queue.ts';
import { deleteUnconfirmedSignUps } from '../newsletter/retention.ts';
import type { RateLimiter } from '../rate-limit/index.ts';
import { PURGE_BATCH } from '../rate-limit/service.ts';
import type { SessionService } from '../session/service.ts';
import type { RetentionSettings } from './settings.ts';

const CLAIM_KEY = 'retention_sweep_run';

/** How many rows of each kind one sweep deleted. */
export type RetentionReport = {
  sessions: number;
  logins: number;
  rateLimits: number;
  contactMessages: number;
  newsletterSignUps: number;
  mails: number;
};

export type RetentionDeps = {
  db: Database;
  settings: RetentionSettings;
  sessions: Pick<SessionService, 'purgeExpired'>;
  auth: Pick<AuthService, 'purgeExpired'>;
  limiter: Pick<RateLimiter, 'purgeExpired'>;
  mail: Pick<MailQueue, 'purge'>;
};

export class RetentionSweep {
  constructor(private readonly deps: RetentionDeps) {}

  /**
   * One sweep when this process holds the claim for the interval (`force`: whatever the claim says, for the
   * operator's command); null when another process swept within the interval.
   */
  async run(options: { force?: boolean } = {}): Promise<RetentionReport | null> {
    const { db, settings } = this.deps;
    // Half the interval: a process that started late still finds the claim free at its next tick.
    if (!options.force && !(await claimPeriodicRun(db, CLAIM_KEY, settings.intervalMs / 2))) return null;
    return {
      sessions: await this.deps.sessions.purgeExpired(),
      logins: await this.deps.auth.purgeExpired(),
      rateLimits: await this.purgeRateLimits(),
      contactMessages: await deleteOldContactMessages(db, settings.contactMessageDays),
      newsletterSignUps: await deleteUnconfirmedSignUps(db, settings.newsletterPendingDays),
      mails: await this.deps.mail.purge({ sentDays: settings.mailSentDays, failedDays: settings.mailFailedDays }),
    };
  }

  /** The limiter deletes in bounded batches (short locks); a sweep goes on until a batch is not full. */
  private async purgeRateLimits(): Promise<number> {
    let total = 0;
    for (let round = 0; round < 100; round++) {
      const n = await this.deps.limiter.purgeExpired();
      total += n;
      if (n < PURGE_BATCH) break;
    }
    return total;
  }
}

/** Sum of a report's rows, for the log line. */
export const sweptRows = (r: RetentionReport) => Object.values(r).reduce((a, b) => a + b, 0);
