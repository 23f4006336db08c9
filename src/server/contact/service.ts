/**
 * The contact domain's service: keeps a message in the database, then tells support by e-mail (Reply-To
 * the visitor). The message is stored first so a mail outage never loses it; the row records whether the
 * notification went out.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { contactMessage, type Brand, type Mailer } from '../mail/index.ts';
import { contactMessages } from './tables.ts';
import type { ContactForm } from './validation.ts';

export type ContactMeta = { remoteIp: string | null; userAgent: string | null; botScore: number | null };

export type ContactServiceOptions = {
  mailer: Pick<Mailer, 'sendMail'>;
  supportEmail: string;
  brand?: Brand;
  log?: (message: string) => void;
};

export type StoredContactMessage = typeof contactMessages.$inferSelect;

export class ContactService {
  private readonly log: (message: string) => void;

  constructor(
    private readonly db: Database,
    private readonly options: ContactServiceOptions,
  ) {
    this.log = options.log ?? ((m) => console.error(`[meshfront] ${m}`));
  }

  /** Store the message and mail it to support. Resolves once stored (and the mail was attempted). */
  async submit(form: ContactForm, meta: ContactMeta): Promise<{ id: number; mailed: boolean }> {
    const [row] = await this.db
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
    const { id, createdAt } = row!;
    try {
      const content = contactMessage(
        {
          firstName: form.firstName,
          lastName: form.lastName,
          email: form.email,
          phone: form.phone,
          message: form.message,
          locale: form.locale,
          receivedAt: createdAt,
        },
        this.options.brand,
      );
      await this.options.mailer.sendMail({
        to: this.options.supportEmail,
        ...content,
        headers: { ...content.headers, 'X-Meshfront-Contact-Id': String(id) },
      });
      await this.db.update(contactMessages).set({ mailStatus: 'sent' }).where(eq(contactMessages.id, id));
      return { id, mailed: true };
    } catch (err) {
      // Stored but not delivered: support finds it in the database (mail_status = 'failed').
      const reason = (err as Error).message;
      this.log(`contact message ${id} was stored but mailing it to support failed: ${reason}`);
      await this.db
        .update(contactMessages)
        .set({ mailStatus: 'failed', mailError: reason.slice(0, 1000) })
        .where(eq(contactMessages.id, id));
      return { id, mailed: false };
    }
  }

  async get(id: number): Promise<StoredContactMessage | null> {
    const [row] = await this.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    return row ?? null;
  }
}
