/**
 * The mail queue (the durable outbox): every mail the shop sends is a row of `mail_queue`, inserted by
 * `enqueue` in the same transaction as the change that causes it, so a mail exists exactly when its
 * change committed — a process that dies after the commit loses nothing, the next sender finds the row.
 * (The file drop that stands in for SMTP in development and tests is the mailer's outbox, mailer.ts; this
 * queue sends through whichever transport the mailer has.)
 *
 * Sending: `wake` right after a commit in this process, `deliver` when a request wants its own mail's
 * first attempt before it answers, and a poll (engine/jobs.ts) for mail queued elsewhere or due for a
 * retry. A failed delivery is tried again after a wait that doubles each time (MAIL_RETRY_BASE_MS, at
 * most an hour), at most MAIL_MAX_ATTEMPTS times; then the mail is `failed` and shows in /admin/mail,
 * where an operator can send it again. A recipient the server refuses for good (5xx at RCPT) or a mail
 * that cannot be valid fails at once: trying again would only repeat the refusal.
 *
 * One sender per row:
 * - PostgreSQL (several processes): the row is taken with SELECT … FOR UPDATE SKIP LOCKED and the lock is
 *   held, in that transaction, while the mail is handed to the server; the outcome is written in the same
 *   transaction. Other processes skip the row meanwhile, and when a process dies its transaction ends and
 *   the row is free for the next sender at once. A process sends at most SEND_CONCURRENCY mails at a
 *   time, so slow SMTP holds at most that many pool connections.
 * - PGlite (only this process can open the database): rows in flight are kept in memory; a transaction
 *   open for the length of an SMTP conversation would stop every other statement of the shop.
 *
 * A mail is never sent twice for one event: the idempotency key (`<kind>:<event>`, unique) makes a second
 * enqueue of the same event a no-op, and a row marked sent is never taken again. The one gap is a crash
 * between the server accepting the message and the row being marked sent: the next sender delivers it
 * again, with the same Message-ID (drawn once at enqueue), so the copies are recognisably one message.
 *
 * Postgres job queues (graphile-worker, pg-boss) were not used: they need LISTEN/NOTIFY, their own schema
 * and several connections, none of which the embedded PGlite database offers, and the shop needs the
 * insert to share the caller's transaction — a table of its own does all of that with a few statements.
 */
import crypto from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { isSingleProcess, type Database, type DbOrTx } from '../db/connection.ts';
import { selectRows } from '../db/raw-rows.ts';
import { errorSummary, redactMessage } from '../error-summary.ts';
import { MailError } from './address.ts';
import { checkMail, type Mailer, type OutgoingMail } from './mailer.ts';
import type { MailQueueSettings } from './settings.ts';
import { mailQueue, type MailAttachmentRef, type QueuedContent } from './tables.ts';

/** Every mail the shop sends, by what causes it. */
export const MAIL_KINDS = [
  'order-confirmation',
  'order-completed',
  'order-invoice',
  'password-reset',
  'email-verification',
  'email-changed',
  'account-link',
  'account-deleted',
  'account-deletion-link',
  'contact-message',
  'newsletter-confirmation',
  'newsletter-welcome',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export type QueuedMail = OutgoingMail & {
  kind: MailKind;
  /** The event's own id (order number, key hash, message id …); with `kind` the idempotency key. */
  event: string | number;
  /** Mails of one topic replace each other: queuing one cancels the older ones not sent yet. */
  topic?: string;
  /** Files made when the mail is sent (the row keeps the reference, not the bytes). */
  attach?: MailAttachmentRef[];
};

/** Makes a referenced attachment's file at send time (the invoice domain's PDF). */
export type AttachmentSource = (
  ref: MailAttachmentRef,
) => Promise<{ filename: string; content: Buffer; contentType: string }>;

export type MailQueueRow = typeof mailQueue.$inferSelect;

/** What became of a mail: sent, still to be sent (a retry is due later, or another process has it), failed. */
export type DeliveryOutcome = 'sent' | 'queued' | 'failed';

/**
 * A domain's record of its own mail (contact messages keep whether support got theirs): called in the
 * transaction that marks the mail sent or failed.
 */
export type SettledHandler = (
  tx: DbOrTx,
  settled: { event: string; status: 'sent' | 'failed'; error: string | null },
) => Promise<void>;

/** The longest wait between two attempts. */
const MAX_RETRY_WAIT_MS = 3_600_000;
/** Mails a process hands to the server at once (each holds a pool connection on PostgreSQL). */
const SEND_CONCURRENCY = 2;
/** Rows a single-process sender looks at per query. */
const PEEK = 10;
/** A request waits at most this long for its own mail's first attempt; the attempt goes on after that. */
const REQUEST_WAIT_MS = 15_000;

const EVENT_PATTERN = /^[A-Za-z0-9._:-]{1,200}$/;

type Attempt = { sent: true } | { sent: false; permanent: boolean; error: string };

/** SMTP refused a recipient for good (5xx at RCPT), or the message itself can never be valid. */
function isPermanent(err: unknown): boolean {
  if (!(err instanceof MailError)) return false;
  if (err.cause === undefined) return true;
  const cause = err.cause as { code?: unknown; responseCode?: unknown };
  return cause.code === 'EENVELOPE' && typeof cause.responseCode === 'number' && cause.responseCode >= 500;
}

/** A failure for the row and the log: no address, no quoted value. */
function failureText(err: unknown): string {
  return err instanceof Error ? redactMessage(err.message) : errorSummary(err);
}

/** A fixed-size semaphore: at most `size` holders at once, the others wait in order. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

export class MailQueue {
  private readonly singleProcess: boolean;
  private readonly domain: string;
  private readonly handlers = new Map<MailKind, SettledHandler>();
  private attachmentSource: AttachmentSource | null = null;
  /** Rows this process is sending now, with their outcome to come. */
  private readonly inFlight = new Map<number, Promise<DeliveryOutcome>>();
  private readonly slots = new Slots(SEND_CONCURRENCY);
  private started = false;
  private stopped = false;
  private draining: Promise<void> | null = null;
  private drainAgain = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryAt = 0;
  /** When this process's own scheduled retries are due (ms), soonest first. */
  private retryTimes: number[] = [];

  constructor(
    private readonly db: Database,
    readonly mailer: Mailer,
    readonly settings: MailQueueSettings = mailer.settings.queue,
    private readonly log: (message: string) => void = (m) => console.warn(`[meshfront] ${m}`),
  ) {
    this.singleProcess = isSingleProcess(db);
    this.domain = mailer.settings.from.address.split('@')[1] ?? 'localhost';
  }

  /** Records what makes the files that queued mails reference. */
  resolveAttachmentsWith(source: AttachmentSource): void {
    this.attachmentSource = source;
  }

  /** Records a domain's handler for the outcome of its mails of `kind` (one per kind). */
  onSettled(kind: MailKind, handler: SettledHandler): void {
    this.handlers.set(kind, handler);
  }

  /**
   * Queues a mail in the caller's transaction `tx`; the id of the new row, or null when this event's mail
   * was queued before (or cannot be sent at all). A mail that can never be valid (an address the mailer
   * refuses) does not undo the caller's change: it is kept as failed, with the reason, for the operator.
   */
  async enqueue(tx: DbOrTx, mail: QueuedMail): Promise<number | null> {
    const event = String(mail.event);
    if (!EVENT_PATTERN.test(event)) throw new Error(`mail event id ${JSON.stringify(event)} is not a plain id`);
    const idempotencyKey = `${mail.kind}:${event}`;
    let refusal: string | null = null;
    let checked: ReturnType<typeof checkMail> | null = null;
    try {
      checked = checkMail(mail);
    } catch (err) {
      if (!(err instanceof MailError)) throw err;
      refusal = redactMessage(err.message);
    }
    const listed = typeof mail.to === 'string' ? [mail.to] : [...mail.to];
    const content: QueuedContent = {
      text: String(mail.text ?? ''),
      html: mail.html ?? null,
      replyTo: checked?.replyTo ?? mail.replyTo ?? null,
      headers: checked?.headers ?? mail.headers ?? {},
      ...(mail.attach?.length ? { attachments: mail.attach } : {}),
    };
    if (mail.topic) {
      // The older mails of the topic that are not being sent right now (PostgreSQL: locked by a sender).
      await tx.execute(sql`update mail_queue set status = 'cancelled', updated_at = now()
        where id in (select id from mail_queue where topic = ${mail.topic} and status = 'queued' for update skip locked)`);
    }
    // The Message-ID is drawn here, once: derived from the key and a random part (a database restored
    // from an old backup reuses order numbers, and a new mail must not look like an old one).
    const nonce = crypto.randomBytes(12).toString('hex');
    const digest = crypto.createHash('sha256').update(`${idempotencyKey}\n${nonce}`).digest('hex').slice(0, 32);
    const rows = await tx
      .insert(mailQueue)
      .values({
        idempotencyKey,
        kind: mail.kind,
        topic: mail.topic ?? null,
        messageId: `<${mail.kind}.${digest}@${this.domain}>`,
        recipients: (checked?.to ?? listed.map(String)).slice(0, 50),
        subject: (checked?.subject ?? String(mail.subject ?? '')).replace(/[\r\n\u0000]+/g, ' ').slice(0, 250),
        content,
        status: refusal ? 'failed' : 'queued',
        lastError: refusal ? `refused before sending: ${refusal}` : null,
      })
      .onConflictDoNothing({ target: mailQueue.idempotencyKey })
      .returning({ id: mailQueue.id });
    const id = rows[0]?.id ?? null;
    if (refusal && id !== null) this.log(`mail ${id} (${mail.kind}) cannot be sent: ${refusal}`);
    return refusal ? null : id;
  }

  /** Whether a mail of this event was queued before (whatever became of it since). */
  async wasQueued(tx: DbOrTx, kind: MailKind, event: string | number): Promise<boolean> {
    const rows = await tx
      .select({ id: mailQueue.id })
      .from(mailQueue)
      .where(eq(mailQueue.idempotencyKey, `${kind}:${event}`));
    return rows.length > 0;
  }

  /** Starts sending: `wake` does nothing before (the engine starts it with its background jobs). */
  start(): void {
    if (!this.stopped) this.started = true;
  }

  /** Sends every due mail now, in the background (right after a commit in this process, and the poll). */
  wake(): void {
    if (!this.started || this.stopped) return;
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = this.drain().finally(() => {
      this.draining = null;
    });
  }

  /**
   * The first attempt of these freshly queued mails, for a request that wants to answer with the outcome
   * (the verification link the customer asked for, the operator's completion). Never throws: the mail
   * is queued whatever happens here. A row another process is sending, or that is not due, is `queued`.
   */
  async deliver(ids: readonly (number | null)[]): Promise<Map<number, DeliveryOutcome>> {
    const outcomes = new Map<number, DeliveryOutcome>();
    const wanted = ids.filter((id): id is number => id !== null);
    for (const id of wanted) outcomes.set(id, 'queued');
    if (this.stopped || wanted.length === 0) return outcomes;
    const work = (async () => {
      for (const id of wanted) outcomes.set(id, await this.deliverOne(id));
    })();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, REQUEST_WAIT_MS);
      timer.unref();
    });
    await Promise.race([work, timeout]).finally(() => clearTimeout(timer));
    return new Map(outcomes);
  }

  private async deliverOne(id: number): Promise<DeliveryOutcome> {
    try {
      const running = this.inFlight.get(id);
      if (running) return await running;
      const done = await this.sendOne(id);
      if (done) return done.outcome;
      // The wake-up's sender may have taken it while this call waited for a sending slot.
      const taken = this.inFlight.get(id);
      if (taken) return await taken;
      const [row] = await this.db.select({ status: mailQueue.status }).from(mailQueue).where(eq(mailQueue.id, id));
      return row?.status === 'sent' ? 'sent' : row?.status === 'failed' ? 'failed' : 'queued';
    } catch (err) {
      this.log(`mail ${id} was not sent now (it stays queued): ${errorSummary(err)}`);
      return 'queued';
    }
  }

  /** Stops sending; resolves once the mails being sent now are settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryTimes = [];
    await this.draining;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Mails sent or cancelled long ago, and failed ones nobody retried, are deleted; how many went. */
  async purge(keep: { sentDays: number; failedDays: number }): Promise<number> {
    const gone = await this.db
      .delete(mailQueue)
      .where(
        or(
          and(
            inArray(mailQueue.status, ['sent', 'cancelled']),
            lte(mailQueue.updatedAt, sql`now() - make_interval(days => ${keep.sentDays})`),
          ),
          and(
            eq(mailQueue.status, 'failed'),
            lte(mailQueue.updatedAt, sql`now() - make_interval(days => ${keep.failedDays})`),
          ),
        ),
      )
      .returning({ id: mailQueue.id });
    return gone.length;
  }

  /**
   * Erasing a customer (privacy/erase.ts): the mails to `address` are deleted, sent or not (a mail being
   * sent right now, locked by its sender, stays until the retention sweep). How many went.
   */
  async forgetMailsTo(tx: DbOrTx, address: string): Promise<number> {
    const lower = address.trim().toLowerCase();
    const gone = await selectRows<{ id: number }>(
      tx,
      sql`delete from mail_queue where id in (
        select id from mail_queue
        where exists (select 1 from jsonb_array_elements_text(recipients) r where lower(r) = ${lower})
        for update skip locked)
      returning id`,
    );
    return gone.length;
  }

  // ---------- the operator's view (/admin/mail) ----------

  /** Mails that failed, and mails still being retried after a failure: most recently tried first. */
  async troubled(page: { limit: number; offset: number }): Promise<{ total: number; rows: MailQueueRow[] }> {
    const where = or(eq(mailQueue.status, 'failed'), and(eq(mailQueue.status, 'queued'), gt(mailQueue.attempts, 0)));
    const [rows, [counted]] = await Promise.all([
      this.db
        .select()
        .from(mailQueue)
        .where(where)
        .orderBy(desc(mailQueue.updatedAt), desc(mailQueue.id))
        .limit(page.limit)
        .offset(page.offset),
      this.db.select({ n: sql<number>`count(*)::int` }).from(mailQueue).where(where),
    ]);
    return { total: Number(counted?.n ?? 0), rows };
  }

  async get(id: number): Promise<MailQueueRow | null> {
    const [row] = await this.db.select().from(mailQueue).where(eq(mailQueue.id, id));
    return row ?? null;
  }

  /**
   * An operator's "send again": a failed mail gets a fresh set of attempts, a mail waiting for its next
   * attempt is due now; then one attempt is made at once. Null when there is no such mail to retry.
   */
  async retry(id: number): Promise<{ row: MailQueueRow; outcome: DeliveryOutcome } | null> {
    const [row] = await this.db
      .update(mailQueue)
      .set({
        status: 'queued',
        attempts: sql`case when ${mailQueue.status} = 'failed' then 0 else ${mailQueue.attempts} end`,
        nextAttemptAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(mailQueue.id, id), inArray(mailQueue.status, ['failed', 'queued']), sql`content is not null`))
      .returning({ id: mailQueue.id, kind: mailQueue.kind });
    if (!row) return null;
    this.log(`mail ${row.id} (${row.kind}) queued again by an operator`);
    const outcome = (await this.deliver([row.id])).get(row.id) ?? 'queued';
    return { row: (await this.get(row.id))!, outcome };
  }

  /** Every failed mail gets a fresh set of attempts (after the mail server was fixed); how many. */
  async retryAllFailed(): Promise<number> {
    const rows = await this.db
      .update(mailQueue)
      .set({ status: 'queued', attempts: 0, nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(mailQueue.status, 'failed'), sql`content is not null`))
      .returning({ id: mailQueue.id });
    if (rows.length) {
      this.log(`${rows.length} failed mails queued again by an operator`);
      this.wake();
    }
    return rows.length;
  }

  // ---------- sending ----------

  private async drain(): Promise<void> {
    do {
      this.drainAgain = false;
      await Promise.all(
        Array.from({ length: SEND_CONCURRENCY }, async () => {
          try {
            while (!this.stopped && (await this.sendOne(null))) {
              /* next one */
            }
          } catch (err) {
            this.log(`the mail sender stopped for now (the next wake-up or poll goes on): ${errorSummary(err)}`);
          }
        }),
      );
    } while (this.drainAgain && !this.stopped);
  }

  /** Due rows: queued, their time come, not being sent by this process (`only`: that one row). */
  private due(only: number | null): SQL {
    const busy = [...this.inFlight.keys()];
    return and(
      eq(mailQueue.status, 'queued'),
      lte(mailQueue.nextAttemptAt, sql`now()`),
      only === null ? undefined : eq(mailQueue.id, only),
      busy.length ? notInArray(mailQueue.id, busy) : undefined,
    )!;
  }

  /** Takes one due row and sends it; null when none was due (or free). */
  private sendOne(only: number | null): Promise<{ id: number; outcome: DeliveryOutcome } | null> {
    return this.slots.run(async () => {
      if (this.stopped) return null;
      if (!this.singleProcess) {
        return this.db.transaction(async (tx) => {
          const [row] = await tx
            .select()
            .from(mailQueue)
            .where(this.due(only))
            .orderBy(asc(mailQueue.nextAttemptAt), asc(mailQueue.id))
            .limit(1)
            .for('update', { skipLocked: true });
          if (!row) return null;
          return { id: row.id, outcome: await this.track(row, (attempt) => this.record(tx, row, attempt)) };
        });
      }
      const rows = await this.db
        .select()
        .from(mailQueue)
        .where(this.due(only))
        .orderBy(asc(mailQueue.nextAttemptAt), asc(mailQueue.id))
        .limit(PEEK);
      // Another caller in this process may have taken one of them while the query ran.
      const row = rows.find((r) => !this.inFlight.has(r.id));
      if (!row) return null;
      return {
        id: row.id,
        outcome: await this.track(row, (attempt) => this.db.transaction((tx) => this.record(tx, row, attempt))),
      };
    });
  }

  /** One delivery of `row`, known to this process while it runs; `save` writes its outcome. */
  private track(row: MailQueueRow, save: (attempt: Attempt) => Promise<DeliveryOutcome>): Promise<DeliveryOutcome> {
    const outcome = this.attempt(row).then(save);
    this.inFlight.set(row.id, outcome);
    return outcome.finally(() => this.inFlight.delete(row.id));
  }

  private async attempt(row: MailQueueRow): Promise<Attempt> {
    const content = row.content;
    if (!content) return { sent: false, permanent: true, error: 'the mail has no content left to send' };
    try {
      const refs = content.attachments ?? [];
      if (refs.length && !this.attachmentSource) throw new Error('no attachment source for this mail queue');
      const attachments = await Promise.all(refs.map((ref) => this.attachmentSource!(ref)));
      await this.mailer.sendMail({
        attachments: attachments.length ? attachments : undefined,
        to: row.recipients,
        subject: row.subject,
        text: content.text,
        html: content.html ?? undefined,
        replyTo: content.replyTo ?? undefined,
        headers: content.headers,
        messageId: row.messageId,
      });
      return { sent: true };
    } catch (err) {
      return { sent: false, permanent: isPermanent(err), error: failureText(err) };
    }
  }

  /** Writes the outcome of one attempt (and the domain's record of it) in `tx`. */
  private async record(tx: DbOrTx, row: MailQueueRow, attempt: Attempt): Promise<DeliveryOutcome> {
    const attempts = row.attempts + 1;
    const handler = this.handlers.get(row.kind as MailKind);
    const event = row.idempotencyKey.slice(row.kind.length + 1);
    if (attempt.sent) {
      // Also over a cancellation that came while the mail was on its way (PGlite): it did go out.
      await tx
        .update(mailQueue)
        .set({
          status: 'sent',
          attempts,
          content: null,
          lastError: null,
          sentAt: sql`clock_timestamp()`,
          updatedAt: sql`clock_timestamp()`,
        })
        .where(and(eq(mailQueue.id, row.id), inArray(mailQueue.status, ['queued', 'cancelled'])));
      await handler?.(tx, { event, status: 'sent', error: null });
      return 'sent';
    }
    if (attempt.permanent || attempts >= this.settings.maxAttempts) {
      await tx
        .update(mailQueue)
        .set({ status: 'failed', attempts, lastError: attempt.error, updatedAt: sql`clock_timestamp()` })
        .where(and(eq(mailQueue.id, row.id), eq(mailQueue.status, 'queued')));
      await handler?.(tx, { event, status: 'failed', error: attempt.error });
      this.log(
        `mail ${row.id} (${row.kind}) failed after ${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}; an operator can send it again in /admin/mail: ${attempt.error}`,
      );
      return 'failed';
    }
    const waitMs = Math.min(this.settings.retryBaseMs * 2 ** (attempts - 1), MAX_RETRY_WAIT_MS);
    await tx
      .update(mailQueue)
      .set({
        attempts,
        lastError: attempt.error,
        nextAttemptAt: sql`clock_timestamp() + make_interval(secs => ${waitMs / 1000})`,
        updatedAt: sql`clock_timestamp()`,
      })
      .where(and(eq(mailQueue.id, row.id), eq(mailQueue.status, 'queued')));
    this.log(
      `mail ${row.id} (${row.kind}) attempt ${attempts} of ${this.settings.maxAttempts} failed, next in ${Math.ceil(waitMs / 1000)} s: ${attempt.error}`,
    );
    this.wakeAt(Date.now() + waitMs);
    return 'queued';
  }

  /** A wake-up at this process's own next retry, so it does not wait for the poll. */
  private wakeAt(at: number): void {
    if (this.stopped) return;
    this.retryTimes.push(at);
    this.retryTimes.sort((a, b) => a - b);
    this.armRetryTimer();
  }

  private armRetryTimer(): void {
    const next = this.retryTimes[0];
    if (next === undefined || this.stopped || (this.retryTimer && this.retryAt <= next)) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryAt = next;
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = null;
        const now = Date.now();
        while (this.retryTimes.length && this.retryTimes[0]! <= now) this.retryTimes.shift();
        this.wake();
        this.armRetryTimer();
      },
      Math.max(0, next - Date.now()) + 20,
    );
    this.retryTimer.unref();
  }
}
