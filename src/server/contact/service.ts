/**
 * The contact domain's service: keeps a message in the database and, in the same transaction, queues the
 * e-mail that tells support (Reply-To the visitor) in the mail queue, which delivers it and retries. A mail
 * outage never loses a message; the row records whether the notification went out (mail_status pending →
 * sent | failed, kept by `contactMailSettled` when the queue settles the mail).
 */
import { eq } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/connection.ts';
import { contactMessage, type Brand, type MailQueue, type SettledHandler } from '../mail/index.ts';
import { contactMessages } from './tables.ts';
import type { ContactForm } from './validation.ts';

export type ContactMeta = { remoteIp: string | null; userAgent: string | null; botScore: number | null };

export type ContactServiceOptions = {
  mail: MailQueue;
  supportEmail: string;
  brand?: Brand;
  log?: (message: string) => void;
};

export type StoredContactMessage = typeof contactMessages.$inferSelect;

/** The mail queue's word on a message's notification to support, in the transaction that settles it. */
export const contactMailSettled: SettledHandler = async (tx: DbOrTx, settled) => {
  const id = Number(settled.event);
  if (!Number.isSafeInteger(id)) return;
  await tx
    .update(contactMessages)
    .set({ mailStatus: settled.status, mailError: settled.error?.slice(0, 1000) ?? null })
    .where(eq(contactMessages.id, id));
};

export class ContactService {
  private readonly log: (message: string) => void;

  constructor(
    private readonly db: Database,
    private readonly options: ContactServiceOptions,
  ) {
    this.log = options.log ?? ((m) => console.error(`[meshfront] ${m}`));
    options.mail.onSettled('contact-message', contactMailSettled);
  }

  /**
   * Stores the message and queues its mail to support in one transaction, then makes the mail's first
   * attempt. `mailed`: support has it now (false: the queue goes on trying; the row says how it ends).
   */
  async submit(form: ContactForm, meta: ContactMeta): Promise<{ id: number; mailed: boolean }> {
    const { id, mailId } = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(contactMessages)
        .values({
          firstName: form.firstName,
          lastName: form.lastName,
          email: form.email,
          phone: form.phone,
          message: form.message,
          locale: form.locale ?? null,
          remoteIp: meta.remoteIp,
          userAgent: meta.userAgent?.slice(0, 500) ?? null,
          botScore: meta.botScore,
        })
        .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
      const stored = row!;
      const content = contactMessage(
        {
          firstName: form.firstName,
          lastName: form.lastName,
          email: form.email,
          phone: form.phone,
          message: form.message,
          locale: form.locale,
          receivedAt: stored.createdAt,
        },
        this.options.brand,
      );
      const queued = await this.options.mail.enqueue(tx, {
        kind: 'contact-message',
        event: stored.id,
        to: this.options.supportEmail,
        ...content,
        headers: { ...content.headers, 'X-Meshfront-Contact-Id': String(stored.id) },
      });
      // Null: the mailer refused the message itself (the queue keeps it as failed, with the reason).
      if (queued === null)
        await contactMailSettled(tx, {
          event: String(stored.id),
          status: 'failed',
          error: 'the notification to support could not be built',
        });
      return { id: stored.id, mailId: queued };
    });
    if (mailId === null) {
      this.log(`contact message ${id} was stored but its mail to support cannot be sent`);
      return { id, mailed: false };
    }
    const outcome = (await this.options.mail.deliver([mailId])).get(mailId);
    return { id, mailed: outcome === 'sent' };
  }

  async get(id: number): Promise<StoredContactMessage | null> {
    const [row] = await this.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    return row ?? null;
  }
}
