/**
 * The retention sweep deletes exactly what the shop may no longer keep or no longer needs — expired
 * sessions, logins and keys, finished rate-limit windows, old contact messages, unconfirmed newsletter
 * sign-ups, old outbox rows — and nothing that is still live. Runs on PGlite and, with DATABASE_URL, on
 * PostgreSQL.
 */
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authSessions,
  emailVerificationKeys,
  oauthStateUses,
  passwordResetKeys,
} from '../../src/server/auth/tables.ts';
import { contactMessages } from '../../src/server/contact/tables.ts';
import { mailQueue } from '../../src/server/mail/tables.ts';
import { newsletterSubscribers } from '../../src/server/newsletter/tables.ts';
import { rateLimits } from '../../src/server/rate-limit/tables.ts';
import { sessions } from '../../src/server/session/tables.ts';
import { register } from './accounts-helpers.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(() => t?.close());

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000);

describe('the retention sweep', () => {
  it('deletes only what has expired or is past its retention period', async () => {
    const db = t.engine.database.db;
    const customer = await register(t);
    const userId = customer.userId;

    await db.insert(sessions).values([
      { customerId: 't_retention_expired', data: {}, expiresAt: daysAgo(1) },
      { customerId: 't_retention_live', data: {}, expiresAt: inDays(1) },
    ]);
    await db.insert(authSessions).values([
      { id: 'ret-expired', userId, refreshHash: 'ret-h1', refreshExpiresAt: daysAgo(1) },
      { id: 'ret-revoked', userId, refreshHash: 'ret-h2', refreshExpiresAt: inDays(10), revokedAt: daysAgo(2) },
      { id: 'ret-live', userId, refreshHash: 'ret-h3', refreshExpiresAt: inDays(10) },
    ]);
    await db.insert(passwordResetKeys).values([
      { keyHash: 'ret-reset-expired', userId, expiresAt: daysAgo(1) },
      { keyHash: 'ret-reset-used', userId, expiresAt: inDays(1), usedAt: daysAgo(0) },
      { keyHash: 'ret-reset-live', userId, expiresAt: inDays(1) },
    ]);
    await db
      .insert(emailVerificationKeys)
      .values([{ keyHash: 'ret-verify-expired', userId, email: customer.email, expiresAt: daysAgo(1) }]);
    await db.insert(oauthStateUses).values([
      { stateHash: 'ret-state-expired', expiresAt: daysAgo(1) },
      { stateHash: 'ret-state-live', expiresAt: inDays(1) },
    ]);
    await db.insert(rateLimits).values([
      { bucket: 'ret', key: 'old', windowStart: daysAgo(3), expiresAt: daysAgo(1) },
      { bucket: 'ret', key: 'current', windowStart: daysAgo(0), expiresAt: inDays(1) },
    ]);
    const contact = (email: string, createdAt: Date, mailStatus: string) => ({
      firstName: 'Grace',
      lastName: 'Hopper',
      email,
      message: 'Does the outdoor gateway work at -20 °C?',
      mailStatus,
      createdAt,
    });
    await db
      .insert(contactMessages)
      .values([
        contact('old-sent@retention.test', daysAgo(400), 'sent'),
        contact('old-failed@retention.test', daysAgo(400), 'failed'),
        contact('old-pending@retention.test', daysAgo(400), 'pending'),
        contact('recent@retention.test', daysAgo(30), 'sent'),
      ]);
    const signUp = (email: string, status: string, updatedAt: Date) => ({
      email,
      status,
      updatedAt,
      createdAt: updatedAt,
    });
    await db
      .insert(newsletterSubscribers)
      .values([
        signUp('never-confirmed@retention.test', 'pending', daysAgo(40)),
        signUp('just-signed-up@retention.test', 'pending', daysAgo(2)),
        signUp('confirmed@retention.test', 'confirmed', daysAgo(400)),
        signUp('unsubscribed@retention.test', 'unsubscribed', daysAgo(400)),
      ]);
    const mail = (key: string, status: string, updatedAt: Date) => ({
      idempotencyKey: key,
      kind: 'retention-test',
      messageId: `<${key}@retention.test>`,
      recipients: ['someone@retention.test'],
      subject: 'Retention',
      status,
      updatedAt,
      // A queued mail in the far future must never be swept, however old its row.
      nextAttemptAt: status === 'queued' ? inDays(1) : updatedAt,
    });
    await db
      .insert(mailQueue)
      .values([
        mail('ret-sent-old', 'sent', daysAgo(31)),
        mail('ret-sent-recent', 'sent', daysAgo(5)),
        mail('ret-cancelled-old', 'cancelled', daysAgo(31)),
        mail('ret-failed-old', 'failed', daysAgo(91)),
        mail('ret-failed-recent', 'failed', daysAgo(31)),
        mail('ret-queued-old', 'queued', daysAgo(200)),
      ]);

    const report = await t.engine.retention.run({ force: true });
    expect(report).not.toBeNull();

    const ids = async <T>(rows: Promise<{ id: T }[]>) => (await rows).map((r) => r.id).sort();
    expect(
      await ids(
        db
          .select({ id: sessions.customerId })
          .from(sessions)
          .where(inArray(sessions.customerId, ['t_retention_expired', 't_retention_live'])),
      ),
    ).toEqual(['t_retention_live']);
    expect(
      await ids(db.select({ id: authSessions.id }).from(authSessions).where(sql`${authSessions.id} like 'ret-%'`)),
    ).toEqual(['ret-live']);
    expect(
      await ids(
        db
          .select({ id: passwordResetKeys.keyHash })
          .from(passwordResetKeys)
          .where(sql`${passwordResetKeys.keyHash} like 'ret-%'`),
      ),
    ).toEqual(['ret-reset-live']);
    expect(
      await ids(
        db
          .select({ id: emailVerificationKeys.keyHash })
          .from(emailVerificationKeys)
          .where(sql`${emailVerificationKeys.keyHash} like 'ret-%'`),
      ),
    ).toEqual([]);
    expect(
      await ids(
        db
          .select({ id: oauthStateUses.stateHash })
          .from(oauthStateUses)
          .where(sql`${oauthStateUses.stateHash} like 'ret-%'`),
      ),
    ).toEqual(['ret-state-live']);
    expect(
      await ids(db.select({ id: rateLimits.key }).from(rateLimits).where(sql`${rateLimits.bucket} = 'ret'`)),
    ).toEqual(['current']);
    expect(
      await ids(
        db
          .select({ id: contactMessages.email })
          .from(contactMessages)
          .where(sql`${contactMessages.email} like '%@retention.test'`),
      ),
    ).toEqual(['old-pending@retention.test', 'recent@retention.test']);
    expect(
      await ids(
        db
          .select({ id: newsletterSubscribers.email })
          .from(newsletterSubscribers)
          .where(sql`${newsletterSubscribers.email} like '%@retention.test'`),
      ),
    ).toEqual(['confirmed@retention.test', 'just-signed-up@retention.test', 'unsubscribed@retention.test']);
    expect(
      await ids(
        db.select({ id: mailQueue.idempotencyKey }).from(mailQueue).where(sql`${mailQueue.kind} = 'retention-test'`),
      ),
    ).toEqual(['ret-failed-recent', 'ret-queued-old', 'ret-sent-recent']);

    // The report counts at least what this test planted (other tests' expired rows may be swept too).
    expect(report!.sessions).toBeGreaterThanOrEqual(1);
    expect(report!.logins).toBeGreaterThanOrEqual(5);
    expect(report!.rateLimits).toBeGreaterThanOrEqual(1);
    expect(report!.contactMessages).toBe(2);
    expect(report!.newsletterSignUps).toBe(1);
    expect(report!.mails).toBe(3);

    // The live login still works after the sweep.
    const me = await t.gql('query { viewer { databaseId } }', {}, { authorization: `Bearer ${customer.authToken}` });
    expect(me.body.data?.viewer?.databaseId).toBe(userId);
  });

  it('sweeps in one caller per interval: of two at once, one works and the other stands down', async () => {
    // Unforced runs claim the interval first; a forced run (the operator's) above does not hold it back.
    const first = await Promise.all([t.engine.retention.run(), t.engine.retention.run()]);
    expect(first.filter((r) => r !== null)).toHaveLength(1);
    expect(await t.engine.retention.run()).toBeNull();
  });
});
