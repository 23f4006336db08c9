// The mail queue (src/server/mail/queue.ts) on a real engine with SMTP delivery to the local stand-in
// server: a server that refuses is retried with growing waits and the mail is delivered once when it takes
// mail again; a mail whose attempts ran out shows as failed in the admin API and "send again" delivers it;
// a recipient refused for good fails at once, and the log names the mail, never its recipient; every kind
// of mail is queued in the transaction of its change, so a change that rolls back queues nothing and a
// mail that cannot be queued undoes its change. The poll is set to a minute: everything here happens on
// the wake-up after a commit and the queue's own retry timers.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorSummary } from '../../src/server/error-summary.ts';
import { createMailer, MailQueue, readMailSettings } from '../../src/server/mail/index.ts';
import { startSmtpServer, type SmtpServer } from '../fixtures/smtp-server.ts';
import { headersOf, newCustomer, op, register } from './accounts-helpers.ts';
import { adminOp, placePaidOrder, sleep, startAdminEngine, type AdminTestEngine } from './admin-helpers.ts';
import { BILLING, operation, productId, Shopper } from './shop-helpers.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

const RETRY_BASE_MS = 150;
const MAX_ATTEMPTS = 4;
let smtp: SmtpServer;
let t: AdminTestEngine;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // The engine reads its mail settings from the environment (each test file runs in its own process).
  Object.assign(process.env, {
    SMTP_URL: smtp.url(),
    MAIL_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    MAIL_RETRY_BASE_MS: String(RETRY_BASE_MS),
    MAIL_POLL_INTERVAL_MS: '60000',
  });
  t = await startAdminEngine();
});
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

type Row = Record<string, any>;
async function rows(query: ReturnType<typeof sql>): Promise<Row[]> {
  const r = await t.engine.database.db.execute(query);
  return (r as { rows?: Row[] }).rows ?? (r as unknown as Row[]);
}
const mailRow = async (key: string) =>
  (await rows(sql`select * from mail_queue where idempotency_key = ${key}`))[0] ?? null;
const deliveredTo = (address: string) => smtp.messages.filter((m) => m.envelope.to.includes(address));

async function until<T>(what: string, probe: () => Promise<T> | T, ms = 15_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Nothing queued any more: what earlier steps (registrations, orders) sent is out. */
const settled = () =>
  until(
    'an empty queue',
    async () => (await rows(sql`select id from mail_queue where status = 'queued'`)).length === 0,
  );

let shopperSeq = 0;
async function checkout(email: string) {
  const s = new Shopper(t, { 'x-forwarded-for': `203.0.113.${++shopperSeq}` });
  await s.ok(operation('addToCart'), { productId: await productId(t, 'omni-antenna'), quantity: 1 });
  return s.gql(operation('Checkout'), { paymentMethod: 'cod', billing: { ...BILLING, email } });
}

describe('delivery with retries', () => {
  it('a refusing server is tried again after growing waits; the mail goes out once when it takes mail again', async () => {
    await settled();
    smtp.setMode('refuse');
    smtp.refusals.length = 0;
    const email = 'retry.me@example.test';
    const r = await checkout(email);
    expect(r.body.errors).toBeUndefined();
    const orderId = r.body.data.checkout.order.databaseId as number;

    await until('three refused attempts', () => smtp.refusals.length >= 3);
    const [a, b, c] = smtp.refusals as [number, number, number];
    // Waits of 150 ms, then 300 ms: each twice the one before.
    expect(b - a).toBeGreaterThanOrEqual(RETRY_BASE_MS - 10);
    expect(c - b).toBeGreaterThanOrEqual(2 * RETRY_BASE_MS - 10);
    // The row records each refusal when its attempt ends: read it once the third is recorded (a fourth
    // may already be under way on a busy machine).
    const waiting = await until('three failed attempts recorded', async () => {
      const row = await mailRow(`order-confirmation:${orderId}`);
      return row && row.attempts >= 3 ? row : null;
    });
    expect(waiting).toMatchObject({ kind: 'order-confirmation', status: 'queued' });
    expect(waiting!.last_error).toMatch(/451/);
    expect(waiting!.last_error).not.toContain(email);
    // The operator sees it among the mails that keep failing, with its next attempt.
    const listed = (await t.ok('adminFailedMails')).adminFailedMails.nodes.find((m: any) => m.id === waiting!.id);
    expect(listed).toMatchObject({ status: 'QUEUED', maxAttempts: MAX_ATTEMPTS, recipients: [email] });
    expect(listed.attempts).toBeGreaterThanOrEqual(3);
    expect(listed.nextAttemptAt).toBeTruthy();

    smtp.setMode('accept');
    await until('the confirmation', () => deliveredTo(email).length > 0);
    await sleep(4 * RETRY_BASE_MS);
    const got = deliveredTo(email);
    expect(got).toHaveLength(1);
    expect(got[0]!.subject).toContain(String(orderId));
    const sent = await mailRow(`order-confirmation:${orderId}`);
    expect(sent).toMatchObject({ status: 'sent', attempts: 4, content: null, last_error: null });
    // Every attempt carried the Message-ID drawn when the mail was queued.
    expect(got[0]!.headers['message-id']).toEqual([sent!.message_id]);
  });

  it('after its attempts ran out a mail shows as failed in the admin API, and "send again" delivers it once', async () => {
    await settled();
    const c = await register(t, newCustomer('failing'), headersOf({}, '198.51.100.77'));
    await settled();
    smtp.setMode('refuse');
    const asked = await t.gql(op('ResetPasswordEmail'), { username: c.email }, headersOf({}, '198.51.100.78'));
    expect(asked.body.data.sendPasswordResetEmail.success).toBe(true);
    const failed = await until('the failed reset mail', async () => {
      const [row] = await rows(
        sql`select * from mail_queue where kind = 'password-reset' and recipients ? ${c.email} and status = 'failed'`,
      );
      return row;
    });
    expect(failed.attempts).toBe(MAX_ATTEMPTS);

    const page = (await t.ok('adminFailedMails')).adminFailedMails;
    const node = page.nodes.find((m: any) => m.id === failed.id);
    expect(node).toMatchObject({
      kind: 'password-reset',
      status: 'FAILED',
      attempts: MAX_ATTEMPTS,
      maxAttempts: MAX_ATTEMPTS,
      recipients: [c.email],
      subject: expect.stringMatching(/^Reset your /),
      nextAttemptAt: null,
    });
    expect(node.lastError).toMatch(/451/);
    expect(deliveredTo(c.email).filter((m) => /^Reset your /.test(m.subject))).toHaveLength(0);

    smtp.setMode('accept');
    const retried = (await t.ok('adminRetryMail', { id: failed.id })).adminRetryMail;
    expect(retried).toMatchObject({ sent: true, mail: { id: failed.id, status: 'SENT', attempts: 1 } });
    await sleep(4 * RETRY_BASE_MS);
    expect(deliveredTo(c.email).filter((m) => /^Reset your /.test(m.subject))).toHaveLength(1);
    expect((await t.ok('adminFailedMails')).adminFailedMails.nodes.map((m: any) => m.id)).not.toContain(failed.id);
    // A sent mail is not sent again.
    expect(await t.fails('adminRetryMail', { id: failed.id })).toEqual({
      message: `Mail ${failed.id} is sent: only a failed mail, or one waiting for its next attempt, can be sent again.`,
      code: 'CONFLICT',
    });
    expect(await t.fails('adminRetryMail', { id: 99_999_999 })).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('"send all failed mail again" queues every failed mail, which then goes out', async () => {
    await settled();
    smtp.setMode('refuse');
    const order = await placePaidOrder(t, {
      lines: [[await productId(t, 'omni-antenna'), 1, 1000]],
      email: 'all.again@example.test',
    });
    await t.ok('adminUpdateOrderStatus', { input: { orderId: order.id, status: 'COMPLETED' } });
    await until(
      'the failed completion mail',
      async () => (await mailRow(`order-completed:${order.id}`))?.status === 'failed',
    );
    smtp.setMode('accept');
    expect((await t.ok('adminRetryFailedMails')).adminRetryFailedMails).toBeGreaterThanOrEqual(1);
    // The order's confirmation (refused too) goes out again beside it: wait for the completion mail itself.
    await until('the completion mail', async () => (await mailRow(`order-completed:${order.id}`))?.status === 'sent');
    expect(deliveredTo('all.again@example.test').length).toBeGreaterThanOrEqual(1);
  });

  it('a recipient the server refuses for good fails at once; the log names the mail, never its address', async () => {
    const refusing = await startSmtpServer({ rejectRecipients: ['gone@example.test'] });
    const logged: string[] = [];
    try {
      const settings = readMailSettings({ NODE_ENV: 'test', SMTP_URL: refusing.url(), MAIL_MAX_ATTEMPTS: '5' });
      const queue = new MailQueue(t.engine.database.db, createMailer(settings), settings.queue, (m) => logged.push(m));
      const id = await t.engine.database.db.transaction((tx) =>
        queue.enqueue(tx, { kind: 'account-link', event: 'gone.1', to: 'gone@example.test', subject: 'Hi', text: 'x' }),
      );
      expect((await queue.deliver([id])).get(id!)).toBe('failed');
      expect(await mailRow('account-link:gone.1')).toMatchObject({ status: 'failed', attempts: 1 });
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(new RegExp(`^mail ${id} \\(account-link\\) failed after 1 attempt`));
      expect(logged.join('\n')).not.toContain('gone@example.test');
      expect((await mailRow('account-link:gone.1'))!.last_error).not.toContain('gone@example.test');
      await queue.stop();
    } finally {
      await refusing.stop();
    }
  });

  it('queues one mail per event: the same event queued again is not a second mail', async () => {
    const db = t.engine.database.db;
    const mail = {
      kind: 'account-link' as const,
      event: 'twice.1',
      to: 'twice@example.test',
      subject: 'Hi',
      text: 'x',
    };
    const first = await db.transaction((tx) => t.engine.mail.enqueue(tx, mail));
    const second = await db.transaction((tx) => t.engine.mail.enqueue(tx, mail));
    expect(first).toBeGreaterThan(0);
    expect(second).toBeNull();
    t.engine.mail.wake();
    await until('the mail', () => deliveredTo('twice@example.test').length > 0);
    await sleep(4 * RETRY_BASE_MS);
    expect(deliveredTo('twice@example.test')).toHaveLength(1);
  });
});

describe('each kind of mail is queued in the transaction of its change', () => {
  // A trigger refuses the mail queue's insert for the kinds listed: the change's transaction fails there.
  // Whatever that transaction wrote must be gone — which is only so when the mail was queued inside it.
  beforeAll(async () => {
    const db = t.engine.database.db;
    await db.execute(sql`create table test_refused_mail_kinds (kind text primary key)`);
    await db.execute(
      sql.raw(`create function test_refuse_mail() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from test_refused_mail_kinds where kind = new.kind) then
          raise exception 'the test refuses % mail', new.kind;
        end if;
        return new;
      end $$`),
    );
    await db.execute(
      sql`create trigger test_refuse_mail before insert on mail_queue for each row execute function test_refuse_mail()`,
    );
  });
  afterAll(async () => {
    const db = t?.engine.database.db;
    await db?.execute(sql`drop trigger if exists test_refuse_mail on mail_queue`);
  });

  async function refusing<T>(kind: string, fn: () => Promise<T>): Promise<T> {
    await t.engine.database.db.execute(sql`insert into test_refused_mail_kinds (kind) values (${kind})`);
    try {
      return await fn();
    } finally {
      await t.engine.database.db.execute(sql`delete from test_refused_mail_kinds where kind = ${kind}`);
    }
  }
  const count = async (query: ReturnType<typeof sql>) => Number((await rows(query))[0]!.n);
  /** The change failed at the mail queue's insert (the trigger's refusal). */
  async function refusedAtQueue(change: Promise<unknown>): Promise<void> {
    const err = await change.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, 'the change should have failed').not.toBeNull();
    expect(errorSummary(err)).toMatch(/the test refuses/);
  }

  it('order confirmation: no order without its mail, and the mail with the order', async () => {
    smtp.setMode('accept');
    const refused = await refusing('order-confirmation', () => checkout('no.order@example.test'));
    expect(refused.body.errors?.length).toBeGreaterThan(0);
    expect(
      await count(sql`select count(*)::int as n from orders where billing->>'email' = 'no.order@example.test'`),
    ).toBe(0);
    const placed = await checkout('with.order@example.test');
    const id = placed.body.data.checkout.order.databaseId;
    expect(await mailRow(`order-confirmation:${id}`)).toMatchObject({ recipients: ['with.order@example.test'] });
    await until('the confirmation', () => deliveredTo('with.order@example.test').length > 0);
  });

  it('order completion: the order stays processing when its mail cannot be queued', async () => {
    const order = await placePaidOrder(t, {
      lines: [[await productId(t, 'omni-antenna'), 1, 1000]],
      email: 'complete.tx@example.test',
    });
    const refused = await refusing('order-completed', () =>
      t.adminGql(
        adminOp('adminUpdateOrderStatus'),
        { input: { orderId: order.id, status: 'COMPLETED' } },
        t.managerToken,
      ),
    );
    expect(refused.body.errors?.length).toBeGreaterThan(0);
    expect((await t.ok('adminOrder', { id: order.id })).adminOrder.status).toBe('PROCESSING');
    expect(await mailRow(`order-completed:${order.id}`)).toBeNull();
    const done = (await t.ok('adminUpdateOrderStatus', { input: { orderId: order.id, status: 'COMPLETED' } }))
      .adminUpdateOrderStatus;
    expect(done).toMatchObject({ customerNotified: true, order: { status: 'COMPLETED' } });
    expect((await mailRow(`order-completed:${order.id}`))!.status).toBe('sent');
  });

  it('password reset: no reset key without its mail', async () => {
    const c = await register(t, newCustomer('resettx'), headersOf({}, '198.51.100.90'));
    const user = (await t.engine.accounts.customers.findByEmail(c.email))!;
    await refusing('password-reset', async () => {
      await refusedAtQueue(t.engine.accounts.auth.sendPasswordReset(c.email, '198.51.100.91'));
    });
    expect(await count(sql`select count(*)::int as n from password_reset_keys where user_id = ${user.id}`)).toBe(0);
    await t.engine.accounts.auth.sendPasswordReset(c.email, '198.51.100.91');
    expect(await count(sql`select count(*)::int as n from password_reset_keys where user_id = ${user.id}`)).toBe(1);
    expect(
      await count(
        sql`select count(*)::int as n from mail_queue where kind = 'password-reset' and recipients ? ${c.email} and status = 'sent'`,
      ),
    ).toBe(1);
  });

  it('e-mail verification: no verification key without its mail', async () => {
    const c = await register(t, newCustomer('verifytx'), headersOf({}, '198.51.100.92'));
    const user = (await t.engine.accounts.customers.findByEmail(c.email))!;
    const keyCount = () =>
      count(sql`select count(*)::int as n from email_verification_keys where user_id = ${user.id}`);
    expect(await keyCount()).toBe(1);
    const mailsBefore = await count(
      sql`select count(*)::int as n from mail_queue where kind = 'email-verification' and recipients ? ${c.email}`,
    );
    await refusing('email-verification', async () => {
      await refusedAtQueue(t.engine.accounts.auth.sendEmailVerification(user, { requested: true }));
    });
    // The earlier key is still the one that works: the refused request deleted nothing.
    expect(await keyCount()).toBe(1);
    expect(
      await count(
        sql`select count(*)::int as n from mail_queue where kind = 'email-verification' and recipients ? ${c.email}`,
      ),
    ).toBe(mailsBefore);
  });

  it('newsletter confirmation: no pending subscriber without its mail', async () => {
    const newsletter = t.engine.newsletter().newsletter;
    const meta = { ip: '192.0.2.50', baseUrl: 'http://shop.test' };
    await refusing('newsletter-confirmation', async () => {
      await refusedAtQueue(newsletter.subscribe('news.tx@example.test', 'en_US', meta));
    });
    expect(await newsletter.find('news.tx@example.test')).toBeNull();
    expect(await newsletter.subscribe('news.tx@example.test', 'en_US', meta)).toEqual({ mailed: true });
    expect(await newsletter.find('news.tx@example.test')).toMatchObject({ status: 'pending' });
    expect(deliveredTo('news.tx@example.test').filter((m) => /Confirm your subscription/.test(m.subject))).toHaveLength(
      1,
    );
  });

  it('contact message: no stored message without its mail to support', async () => {
    const contact = t.engine.contact().contact;
    const form = {
      firstName: 'Tx',
      lastName: 'Contact',
      email: 'tx.contact@example.test',
      phone: '',
      message: 'Is the mail queued with the message?',
      locale: 'en_US',
    };
    const meta = { remoteIp: null, userAgent: null, botScore: null };
    await refusing('contact-message', async () => {
      await refusedAtQueue(contact.submit(form, meta));
    });
    expect(
      await count(sql`select count(*)::int as n from contact_messages where email = 'tx.contact@example.test'`),
    ).toBe(0);
    const stored = await contact.submit(form, meta);
    expect(stored.mailed).toBe(true);
    expect(await contact.get(stored.id)).toMatchObject({ mailStatus: 'sent', mailError: null });
    expect((await mailRow(`contact-message:${stored.id}`))!.status).toBe('sent');
  });
});
