/**
 * Sends the shop's mail with nodemailer: over SMTP when SMTP_URL is set, otherwise into a file outbox
 * (one .eml file as it would have gone over the wire, plus a .json record) that developers open in a
 * mail client and tests and Playwright read links from. Callers use the same `sendMail` either way; the
 * shop's own mail reaches it through the mail queue (queue.ts), which keeps each mail until it went out.
 *
 * Every message is checked before nodemailer sees it: recipients are single bare addresses, the subject
 * and extra headers are single lines, so no form field can add a header or a recipient.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SendMailOptions, Transporter } from 'nodemailer';
import { MailError, requireEmailAddress, requireExtraHeaders, requireHeaderText } from './address.ts';
import { describeMailTransport, readMailSettings, type MailSettings } from './settings.ts';

export type OutgoingMail = {
  to: string | readonly string[];
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Extra single-line headers (List-Unsubscribe, X-…); address and structure headers are refused. */
  headers?: Record<string, string>;
  /**
   * `<id@domain>`: the queue sets the same one on every delivery of one mail, so a repeated delivery is
   * recognisably the same message. Unset: nodemailer makes a new one.
   */
  messageId?: string;
  /** Files sent along (an invoice PDF): bytes in memory only, never a path or a URL. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
};

export type SentMail = {
  messageId: string;
  delivery: 'smtp' | 'outbox';
  /** Recipients the SMTP server accepted (all of them for the outbox). */
  accepted: string[];
  /** The .eml file, for outbox delivery. */
  file?: string;
};

/** The JSON record the outbox keeps next to each .eml file. */
export type OutboxMessage = {
  messageId: string;
  /** ISO time the message was written. */
  date: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  replyTo: string | null;
  headers: Record<string, string>;
  /** The attached files' names. */
  attachments: string[];
  /** Every http(s) link in the text version, in order: what tests click. */
  links: string[];
  /** Absolute path of the raw message. */
  file: string;
};

export type OutboxFilter = {
  /** Only messages to this address (case-insensitive). */
  to?: string;
  /** Only messages whose subject contains this text or matches this pattern. */
  subject?: string | RegExp;
  /** The outbox to read; default the process's MAIL_OUTBOX_DIR. */
  dir?: string;
};

export type Mailer = {
  settings: MailSettings;
  sendMail(mail: OutgoingMail): Promise<SentMail>;
  readOutbox(filter?: Omit<OutboxFilter, 'dir'>): Promise<OutboxMessage[]>;
  /** Closes the SMTP transport's sockets (no-op for the outbox). */
  close(): void;
};

const MAX_RECIPIENTS = 50;

/** A Message-ID as RFC 5322 writes it, without anything that could end the header. */
const MESSAGE_ID = /^<[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,200}@[A-Za-z0-9.-]{1,253}>$/;

/** The mail as it will be sent, or a MailError naming what is wrong with it. */
export function checkMail(mail: OutgoingMail): {
  to: string[];
  subject: string;
  replyTo?: string;
  headers: Record<string, string>;
  messageId?: string;
} {
  const list = typeof mail.to === 'string' ? [mail.to] : [...mail.to];
  if (list.length === 0) throw new MailError('to must name at least one recipient');
  if (list.length > MAX_RECIPIENTS) throw new MailError(`to names more than ${MAX_RECIPIENTS} recipients`);
  const to = list.map((address, i) => requireEmailAddress(address, list.length === 1 ? 'to' : `to[${i}]`));
  const subject = requireHeaderText(mail.subject, 'subject', 250);
  if (typeof mail.text !== 'string' || mail.text.trim() === '')
    throw new MailError('text must be a non-empty string (every message has a plain-text version)');
  if (mail.html !== undefined && typeof mail.html !== 'string') throw new MailError('html must be a string');
  const replyTo = mail.replyTo === undefined ? undefined : requireEmailAddress(mail.replyTo, 'replyTo');
  if (mail.messageId !== undefined && (typeof mail.messageId !== 'string' || !MESSAGE_ID.test(mail.messageId)))
    throw new MailError('messageId must look like <id@domain>');
  return { to, subject, replyTo, headers: requireExtraHeaders(mail.headers), messageId: mail.messageId };
}

function formatMailbox(settings: MailSettings): string {
  return settings.from.name ? `${settings.from.name} <${settings.from.address}>` : settings.from.address;
}

function extractLinks(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)].map((m) => m[0].replace(/[.,;:!?]+$/, ''));
}

/** Sortable, unique file names: time first so a directory listing is already in order. */
let sequence = 0;
function outboxBaseName(now: Date): string {
  sequence = (sequence + 1) % 1_000_000;
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `${stamp}-${String(sequence).padStart(6, '0')}-${crypto.randomBytes(4).toString('hex')}`;
}

/** Write-then-rename, so a reader polling the outbox never sees half a record. */
async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, data, { mode: 0o600 });
  await fs.rename(tmp, file);
}

const warnedProductionOutbox = new Set<string>();

export function createMailer(
  settings: MailSettings = readMailSettings(),
  options: { log?: (message: string) => void } = {},
): Mailer {
  const log = options.log ?? ((message: string) => console.warn(`[meshfront] ${message}`));
  // disableFileAccess/disableUrlAccess: nothing we send may make nodemailer read a local file or fetch a URL.
  const safety = { disableFileAccess: true, disableUrlAccess: true } as const;
  // nodemailer (about 5 MB of heap) is loaded with the first mail, not at start: an engine that has sent
  // nothing yet does not hold it.
  let transports: Promise<{ smtp: Transporter | null; composer: Transporter | null }> | null = null;
  const transport = () => {
    transports ??= import('nodemailer').then(({ default: nodemailer }) => {
      const smtp = settings.smtpUrl
        ? nodemailer.createTransport({
            url: settings.smtpUrl,
            connectionTimeout: settings.smtpTimeoutMs,
            greetingTimeout: settings.smtpTimeoutMs,
            socketTimeout: settings.smtpTimeoutMs * 3,
          })
        : null;
      // The stream transport builds exactly the bytes SMTP would carry, which is what the .eml file should hold.
      const composer = smtp
        ? null
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
      return { smtp, composer };
    });
    return transports;
  };
  if (!settings.smtpUrl && settings.env === 'production' && !warnedProductionOutbox.has(settings.outboxDir)) {
    warnedProductionOutbox.add(settings.outboxDir);
    log(`SMTP_URL is not set: mail is written to ${settings.outboxDir} and not delivered. Set SMTP_URL to send mail.`);
  }

  async function sendMail(mail: OutgoingMail): Promise<SentMail> {
    const checked = checkMail(mail);
    const { smtp, composer } = await transport();
    const message: SendMailOptions = {
      ...safety,
      from: { name: settings.from.name, address: settings.from.address },
      to: checked.to,
      subject: checked.subject,
      text: mail.text,
      html: mail.html,
      replyTo: checked.replyTo,
      headers: checked.headers,
      messageId: checked.messageId,
      attachments: mail.attachments?.map((a) => ({
        filename: a.filename,
        content: a.content,
        contentType: a.contentType,
      })),
    };
    if (smtp) {
      try {
        const info = await smtp.sendMail(message);
        const accepted = (info.accepted as (string | { address: string })[]).map((a) =>
          typeof a === 'string' ? a : a.address,
        );
        return { messageId: info.messageId, delivery: 'smtp', accepted };
      } catch (error) {
        throw new MailError(
          `sending mail through ${describeMailTransport(settings)} failed: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    const info = await composer!.sendMail(message);
    const now = new Date();
    const base = path.join(settings.outboxDir, outboxBaseName(now));
    const record: OutboxMessage = {
      messageId: info.messageId,
      date: now.toISOString(),
      from: formatMailbox(settings),
      to: checked.to,
      subject: checked.subject,
      text: mail.text,
      html: mail.html ?? null,
      replyTo: checked.replyTo ?? null,
      headers: checked.headers,
      attachments: (mail.attachments ?? []).map((a) => a.filename),
      links: extractLinks(mail.text),
      file: `${base}.eml`,
    };
    await fs.mkdir(settings.outboxDir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(record.file, info.message as Buffer);
    await writeFileAtomic(`${base}.json`, `${JSON.stringify(record, null, 2)}\n`);
    return { messageId: info.messageId, delivery: 'outbox', accepted: checked.to, file: record.file };
  }

  return {
    settings,
    sendMail,
    readOutbox: (filter = {}) => readOutbox({ ...filter, dir: settings.outboxDir }),
    close: () => {
      void transports?.then(({ smtp }) => smtp?.close());
    },
  };
}

/** Messages in an outbox, newest first. A missing outbox directory is an empty outbox. */
export async function readOutbox(filter: OutboxFilter = {}): Promise<OutboxMessage[]> {
  const dir = filter.dir ?? getMailer().settings.outboxDir;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const wanted = filter.to?.toLowerCase();
  const records = await Promise.all(
    names
      .filter((name) => name.endsWith('.json'))
      .sort()
      .reverse()
      .map(async (name) => JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as OutboxMessage),
  );
  return records.filter((record) => {
    if (wanted && !record.to.some((address) => address.toLowerCase() === wanted)) return false;
    if (filter.subject instanceof RegExp) return filter.subject.test(record.subject);
    if (filter.subject !== undefined) return record.subject.includes(filter.subject);
    return true;
  });
}

let processMailer: Mailer | null = null;

/** The process-wide mailer, configured from process.env on first use. */
export function getMailer(): Mailer {
  processMailer ??= createMailer();
  return processMailer;
}

/** Send with the process-wide mailer. */
export function sendMail(mail: OutgoingMail): Promise<SentMail> {
  return getMailer().sendMail(mail);
}
