// Mail: settings, the file outbox (write and read back), real SMTP delivery through nodemailer to a local
// ESMTP server, escaping in the message templates, and refusal of anything that could inject a header.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MailError } from '../../src/server/mail/address.ts';
import { createMailer, readOutbox, type Mailer } from '../../src/server/mail/mailer.ts';
import { readMailSettings, MailSettingsError, describeMailTransport } from '../../src/server/mail/settings.ts';
import { escapeHtml, html } from '../../src/server/mail/html.ts';
import {
  contactMessage,
  formatCents,
  newsletterConfirm,
  newsletterWelcome,
  orderConfirmation,
  passwordReset,
} from '../../src/server/mail/templates/index.ts';
import { parseMessage, startSmtpServer, type SmtpServer } from '../fixtures/smtp-server.ts';

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-mail-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function outboxMailer(): Mailer {
  return createMailer(readMailSettings({ NODE_ENV: 'test', MAIL_OUTBOX_DIR: tempDir() }));
}

describe('mail settings', () => {
  it('has documented defaults', () => {
    const s = readMailSettings({});
    expect(s.from).toEqual({ name: 'Meshfront', address: 'shop@meshfront.example' });
    expect(s.smtpUrl).toBeNull();
    expect(s.outboxDir).toBe(path.resolve('var/mail'));
    expect(s.supportEmail).toBe('support@meshfront.example');
  });

  it('puts the outbox under MESHFRONT_DATA_DIR unless MAIL_OUTBOX_DIR says otherwise', () => {
    expect(readMailSettings({ MESHFRONT_DATA_DIR: '/srv/shop' }).outboxDir).toBe('/srv/shop/mail');
    expect(readMailSettings({ MESHFRONT_DATA_DIR: '/srv/shop', MAIL_OUTBOX_DIR: '/tmp/out' }).outboxDir).toBe(
      '/tmp/out',
    );
  });

  it('refuses bad values, naming the variable', () => {
    expect(() => readMailSettings({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
    expect(() => readMailSettings({ MAIL_FROM: 'Shop <not an address>' })).toThrow(MailSettingsError);
    expect(() => readMailSettings({ MAIL_FROM: 'Shop <shop@example.com>\r\nBcc: x@evil.example' })).toThrow(
      /MAIL_FROM/,
    );
    expect(() => readMailSettings({ SUPPORT_EMAIL: 'support' })).toThrow(/SUPPORT_EMAIL/);
  });

  it('never shows the SMTP password when describing the transport', () => {
    const s = readMailSettings({ SMTP_URL: 'smtps://user:hunter2@mail.example:465' });
    expect(describeMailTransport(s)).toBe('smtps://mail.example:465');
  });
});

describe('file outbox', () => {
  it('writes an .eml file and a record, and reads them back newest first', async () => {
    const mailer = outboxMailer();
    const first = await mailer.sendMail({
      to: 'ana@example.com',
      subject: 'First',
      text: 'Open https://shop.example/a?key=1 now.',
      html: '<p>first</p>',
    });
    const second = await mailer.sendMail({
      to: ['ben@example.com', 'ana@example.com'],
      subject: 'Second',
      text: 'Second message',
    });
    expect(first.delivery).toBe('outbox');

    const all = await mailer.readOutbox();
    expect(all.map((m) => m.subject)).toEqual(['Second', 'First']);
    expect(all[1]).toMatchObject({
      messageId: first.messageId,
      from: 'Meshfront <shop@meshfront.example>',
      to: ['ana@example.com'],
      text: 'Open https://shop.example/a?key=1 now.',
      html: '<p>first</p>',
      links: ['https://shop.example/a?key=1'],
      file: first.file,
    });
    expect(Date.parse(all[1]!.date)).not.toBeNaN();

    // The .eml is the message as SMTP would carry it.
    const eml = parseMessage(fs.readFileSync(first.file!, 'utf8'));
    expect(eml.subject).toBe('First');
    expect(eml.headers['message-id']).toEqual([first.messageId]);
    expect(eml.text).toBe('Open https://shop.example/a?key=1 now.');
    expect(eml.html).toBe('<p>first</p>');
    expect(second.file).not.toBe(first.file);
  });

  it('filters by recipient and subject', async () => {
    const mailer = outboxMailer();
    await mailer.sendMail({ to: 'ana@example.com', subject: 'Reset your password', text: 'a' });
    await mailer.sendMail({ to: 'ben@example.com', subject: 'Reset your password', text: 'b' });
    await mailer.sendMail({ to: 'ana@example.com', subject: 'Welcome', text: 'c' });
    expect((await mailer.readOutbox({ to: 'ANA@example.com' })).map((m) => m.text)).toEqual(['c', 'a']);
    expect((await mailer.readOutbox({ to: 'ana@example.com', subject: 'Reset' })).map((m) => m.text)).toEqual(['a']);
    expect((await mailer.readOutbox({ subject: /^Welcome$/ })).map((m) => m.text)).toEqual(['c']);
    // Another process (Playwright) reads the same directory by path.
    expect(await readOutbox({ dir: mailer.settings.outboxDir, to: 'ben@example.com' })).toHaveLength(1);
  });

  it('reads a missing outbox as empty', async () => {
    expect(await readOutbox({ dir: path.join(tempDir(), 'never-written') })).toEqual([]);
  });

  it('warns once in production that mail is not delivered', () => {
    const log = vi.fn();
    const settings = readMailSettings({ NODE_ENV: 'production', MAIL_OUTBOX_DIR: tempDir() });
    createMailer(settings, { log });
    createMailer(settings, { log });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toMatch(/SMTP_URL is not set/);
  });
});

describe('SMTP delivery', () => {
  let smtp: SmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer({
      auth: { user: 'shop@meshfront.example', pass: 'p@ss:w/rd' },
      rejectRecipients: ['bounce@example.com'],
    });
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  it('delivers through nodemailer with authentication, envelope, headers and both bodies', async () => {
    const outbox = tempDir();
    const mailer = createMailer(
      readMailSettings({
        SMTP_URL: smtp.url({ user: 'shop@meshfront.example', pass: 'p@ss:w/rd' }),
        MAIL_OUTBOX_DIR: outbox,
        MAIL_FROM: 'Meshfront Support <help@meshfront.example>',
      }),
    );
    try {
      const sent = await mailer.sendMail({
        to: 'ana@example.com',
        subject: 'Grüße from the shop – order #1001',
        // Lines that start with a dot must survive SMTP's dot-stuffing in both directions.
        text: 'Hello Ana,\n.hidden\n..two dots\n.\nend',
        html: '<p>Hello Ana</p>',
        replyTo: 'help@meshfront.example',
        headers: { 'X-Meshfront-Kind': 'test' },
      });
      expect(sent).toMatchObject({ delivery: 'smtp', accepted: ['ana@example.com'] });
      const got = smtp.messages.at(-1)!;
      expect(got.authUser).toBe('shop@meshfront.example');
      expect(got.envelope).toEqual({ from: 'help@meshfront.example', to: ['ana@example.com'] });
      expect(got.subject).toBe('Grüße from the shop – order #1001');
      expect(got.headers.from).toEqual(['Meshfront Support <help@meshfront.example>']);
      expect(got.headers['reply-to']).toEqual(['help@meshfront.example']);
      expect(got.headers['x-meshfront-kind']).toEqual(['test']);
      expect(got.headers['message-id']).toEqual([sent.messageId]);
      expect(got.text).toBe('Hello Ana,\n.hidden\n..two dots\n.\nend');
      expect(got.html).toBe('<p>Hello Ana</p>');
      // SMTP mode writes nothing to the outbox.
      expect(fs.readdirSync(outbox)).toEqual([]);
    } finally {
      mailer.close();
    }
  });

  it('reports a refused login or recipient as a MailError without the password', async () => {
    const wrong = createMailer(
      readMailSettings({ SMTP_URL: smtp.url({ user: 'shop@meshfront.example', pass: 'wrong' }) }),
    );
    const error = await wrong.sendMail({ to: 'ana@example.com', subject: 'x', text: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailError);
    expect((error as Error).message).toMatch(/535/);
    expect((error as Error).message).not.toContain('wrong');
    wrong.close();

    const right = createMailer(
      readMailSettings({ SMTP_URL: smtp.url({ user: 'shop@meshfront.example', pass: 'p@ss:w/rd' }) }),
    );
    await expect(right.sendMail({ to: 'bounce@example.com', subject: 'x', text: 'x' })).rejects.toThrow(/550/);
    right.close();
  });

  it('sends without AUTH to a server that does not ask for it', async () => {
    const open = await startSmtpServer();
    const mailer = createMailer(readMailSettings({ SMTP_URL: open.url() }));
    try {
      await mailer.sendMail({ to: 'ana@example.com', subject: 'No auth', text: 'ok' });
      expect(open.messages).toHaveLength(1);
      expect(open.messages[0]!.authUser).toBeNull();
      expect(open.commands.some((c) => c.startsWith('AUTH'))).toBe(false);
    } finally {
      mailer.close();
      await open.stop();
    }
  });

  it('sends a given Message-ID unchanged, over SMTP and into the outbox, and refuses one that is not <id@domain>', async () => {
    const open = await startSmtpServer();
    const smtpMailer = createMailer(readMailSettings({ SMTP_URL: open.url() }));
    const fileMailer = outboxMailer();
    const messageId = '<order-confirmation.0123456789abcdef@meshfront.example>';
    try {
      for (const mailer of [smtpMailer, smtpMailer, fileMailer]) {
        const sent = await mailer.sendMail({ to: 'ana@example.com', subject: 'Again', text: 'x', messageId });
        expect(sent.messageId).toBe(messageId);
      }
      // A repeated delivery is the same message to the receiving side.
      expect(open.messages.map((m) => m.headers['message-id'])).toEqual([[messageId], [messageId]]);
      const [record] = await fileMailer.readOutbox();
      expect(record!.messageId).toBe(messageId);
      expect(fs.readFileSync(record!.file, 'utf8')).toContain(`Message-ID: ${messageId}`);
      for (const bad of ['no-brackets@x', '<two@at@x>', '<id@x>\r\nBcc: e@evil.example', '<>'])
        await expect(
          fileMailer.sendMail({ to: 'ana@example.com', subject: 'x', text: 'x', messageId: bad }),
        ).rejects.toThrow(/messageId must look like <id@domain>/);
    } finally {
      smtpMailer.close();
      await open.stop();
    }
  });

  it('fails with a MailError when no server listens', async () => {
    const gone = await startSmtpServer();
    const url = gone.url();
    await gone.stop();
    const mailer = createMailer(readMailSettings({ SMTP_URL: url }));
    await expect(mailer.sendMail({ to: 'ana@example.com', subject: 'x', text: 'x' })).rejects.toBeInstanceOf(MailError);
    mailer.close();
  });
});

describe('templates escape everything they interpolate', () => {
  const hostile = `<script>alert("x")</script> & 'quotes'`;

  it('escapes text, composes fragments without double escaping, drops null/false', () => {
    expect(escapeHtml(`<a href="x">'&'</a>\``)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;&#96;');
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}${null}${false}${undefined}${[1, html`<br>`, '<']}</p>`.value).toBe(
      '<p><b>&lt;i&gt;</b>1<br>&lt;</p>',
    );
  });

  it('contact message: shopper input is escaped in HTML, kept in text, and flattened in the subject', () => {
    const mail = contactMessage({
      firstName: `Eve\r\nBcc: all@example.com`,
      lastName: hostile,
      email: 'eve@example.com',
      phone: '<b>1</b>',
      message: `line 1\n${hostile}`,
    });
    expect(mail.html).not.toMatch(/<script>|<b>1<\/b>/);
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;');
    expect(mail.html).toContain('line 1<br>&lt;script&gt;');
    expect(mail.text).toContain(`line 1\n${hostile}`);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject.startsWith('Contact form: Eve Bcc: all@example.com')).toBe(true);
    expect(mail.replyTo).toBe('eve@example.com');
    expect(() =>
      contactMessage({ firstName: 'a', lastName: 'b', email: 'eve@example.com\r\nBcc: x@example.com', message: 'x' }),
    ).toThrow(MailError);
  });

  it('order confirmation: names escaped, amounts exact from cents, link in both versions', () => {
    const mail = orderConfirmation({
      orderNumber: '1001',
      orderDate: '2026-11-22T10:00:00Z',
      customerName: '<Ana>',
      currency: 'EUR',
      lineItems: [
        { name: 'Outdoor <Gateway>', variation: 'EU868', quantity: 2, totalCents: 269_800 },
        { name: 'Antenna', quantity: 1, totalCents: 1 },
      ],
      subtotalCents: 269_801,
      discountCents: 500,
      shippingCents: 0,
      shippingMethod: 'Free shipping',
      taxCents: 51_166,
      totalCents: 320_467,
      paymentMethodTitle: 'Cash on delivery',
      billingAddress: {
        firstName: 'Ana',
        lastName: 'Smith',
        address1: '1 <Main> St',
        city: 'Lisbon',
        postcode: '1000-001',
        country: 'PT',
      },
      orderUrl: 'https://shop.example/checkout/order-received/1001?key=wc_order_abc&x=<y>',
    });
    expect(mail.subject).toBe('Your Meshfront order #1001 has been received');
    expect(mail.html).toContain('Outdoor &lt;Gateway&gt; (EU868)');
    expect(mail.html).toContain('Hi &lt;Ana&gt;,');
    expect(mail.html).toContain('1 &lt;Main&gt; St');
    expect(mail.html).not.toContain('<Gateway>');
    expect(mail.text).toContain('2 × Outdoor <Gateway> (EU868)  €2,698.00');
    expect(mail.text).toContain('1 × Antenna  €0.01');
    expect(mail.text).toContain('Discount: -€5.00');
    expect(mail.text).toContain('Total: €3,204.67');
    expect(mail.text).toContain('Shipping (Free shipping): €0.00');
    // The URL parser percent-encodes the angle brackets; in HTML the & is escaped inside href.
    expect(mail.text).toContain('https://shop.example/checkout/order-received/1001?key=wc_order_abc&x=%3Cy%3E');
    expect(mail.html).toContain(
      'href="https://shop.example/checkout/order-received/1001?key=wc_order_abc&amp;x=%3Cy%3E"',
    );
    expect(formatCents(-123_456_789, 'EUR')).toBe('-€1,234,567.89');
    expect(() => formatCents(1.5, 'EUR')).toThrow(/integer cents/);
  });

  it('refuses links that are not http(s), which escaping alone would not stop', () => {
    expect(() => passwordReset({ resetUrl: 'javascript:alert(1)' })).toThrow(/http/);
    expect(() => newsletterConfirm({ confirmUrl: 'data:text/html,<script>' })).toThrow(/http/);
    expect(() => newsletterWelcome({ unsubscribeUrl: '/relative' })).toThrow(/absolute/);
  });

  it('password reset and newsletter messages carry their links and headers', () => {
    const reset = passwordReset({
      resetUrl: 'https://shop.example/my-account/lost-password?key=K&login=ana',
      customerName: 'Ana',
      validForMinutes: 60,
    });
    expect(reset.text).toContain('https://shop.example/my-account/lost-password?key=K&login=ana');
    expect(reset.text).toContain('expires in 1 hour');
    expect(reset.html).toContain('href="https://shop.example/my-account/lost-password?key=K&amp;login=ana"');
    const confirm = newsletterConfirm({ confirmUrl: 'https://shop.example/newsletter/confirm?token=T' });
    expect(confirm.text).toContain('https://shop.example/newsletter/confirm?token=T');
    const welcome = newsletterWelcome({
      unsubscribeUrl: 'https://shop.example/newsletter/unsubscribe?token=U',
      oneClickUnsubscribe: true,
    });
    expect(welcome.headers).toEqual({
      'List-Unsubscribe': '<https://shop.example/newsletter/unsubscribe?token=U>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(newsletterWelcome({ unsubscribeUrl: 'https://shop.example/u' }).headers).toEqual({
      'List-Unsubscribe': '<https://shop.example/u>',
    });
  });

  it('built messages go through sendMail as they are and the links can be read back', async () => {
    const mailer = outboxMailer();
    await mailer.sendMail({
      to: 'ana@example.com',
      ...passwordReset({ resetUrl: 'https://shop.example/my-account/lost-password?key=K1&login=ana' }),
    });
    await mailer.sendMail({
      to: 'ana@example.com',
      ...newsletterWelcome({ unsubscribeUrl: 'https://shop.example/u?t=1' }),
    });
    const [welcome, reset] = await mailer.readOutbox({ to: 'ana@example.com' });
    expect(reset!.links[0]).toBe('https://shop.example/my-account/lost-password?key=K1&login=ana');
    expect(welcome!.headers['List-Unsubscribe']).toBe('<https://shop.example/u?t=1>');
    expect(parseMessage(fs.readFileSync(welcome!.file, 'utf8')).headers['list-unsubscribe']).toEqual([
      '<https://shop.example/u?t=1>',
    ]);
  });
});

describe('header injection is impossible', () => {
  const base = { to: 'ana@example.com', subject: 'Hello', text: 'Body' };
  const attempts: [string, Record<string, unknown>][] = [
    ['CRLF in the subject', { subject: 'Hello\r\nBcc: victim@example.com' }],
    ['a bare LF in the subject', { subject: 'Hello\nBcc: victim@example.com' }],
    ['a bare CR in the subject', { subject: 'Hello\rBcc: victim@example.com' }],
    ['two recipients in one to string', { to: 'ana@example.com, victim@example.com' }],
    ['a display name in to', { to: 'Ana <ana@example.com>' }],
    ['CRLF in to', { to: 'ana@example.com\r\nBcc: victim@example.com' }],
    ['CRLF in replyTo', { replyTo: 'ana@example.com\r\nBcc: victim@example.com' }],
    ['CRLF in an extra header value', { headers: { 'X-Note': 'a\r\nBcc: victim@example.com' } }],
    ['an address header through headers', { headers: { Bcc: 'victim@example.com' } }],
    ['a bad header name', { headers: { 'X-Bad: y\r\nBcc': 'victim@example.com' } }],
    ['no recipient', { to: [] }],
    ['an empty text body', { text: '   ' }],
  ];

  it.each(attempts)('refuses %s before anything is written', async (_label, override) => {
    const mailer = outboxMailer();
    await expect(mailer.sendMail({ ...base, ...override } as never)).rejects.toBeInstanceOf(MailError);
    expect(await mailer.readOutbox()).toEqual([]);
  });

  it('delivers a contact message with hostile names as exactly one message to exactly one recipient', async () => {
    const smtp = await startSmtpServer();
    const mailer = createMailer(readMailSettings({ SMTP_URL: smtp.url(), SUPPORT_EMAIL: 'support@meshfront.example' }));
    try {
      const content = contactMessage({
        firstName: 'Eve\r\nBcc: victim@example.com\r\n',
        lastName: 'X\nSubject: hi',
        email: 'eve@example.com',
        message: 'hi\r\n.\r\nMAIL FROM:<x@example.com>',
      });
      await mailer.sendMail({ to: mailer.settings.supportEmail, ...content });
      expect(smtp.messages).toHaveLength(1);
      const got = smtp.messages[0]!;
      expect(got.envelope.to).toEqual(['support@meshfront.example']);
      expect(got.headers.bcc).toBeUndefined();
      expect(got.headers.subject).toHaveLength(1);
      expect(got.headers['reply-to']).toEqual(['eve@example.com']);
      // The lone dot in the message body was stuffed, so it did not end DATA early.
      expect(got.text).toContain('hi\n.\nMAIL FROM:<x@example.com>');
    } finally {
      mailer.close();
      await smtp.stop();
    }
  });
});
