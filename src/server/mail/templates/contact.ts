/** The contact form's message to support (support reads English: it is not translated). */
import { requireEmailAddress } from '../address.ts';
import { html, oneLine } from '../html.ts';
import { blocks, DEFAULT_BRAND, type Brand } from '../layout.ts';
import { compose, type EmailContent } from './shared.ts';

export type ContactMessageInput = {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string | null;
  message: string;
  receivedAt?: Date;
  /** Where the visitor came from, for support's context (locale, page). */
  locale?: string | null;
};

/** The message support receives; Reply-To is the visitor, so answering in the mail client just works. */
export function contactMessage(input: ContactMessageInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const email = requireEmailAddress(input.email, 'email');
  const name = oneLine(`${input.firstName} ${input.lastName}`, 80) || email;
  const receivedAt = (input.receivedAt ?? new Date()).toISOString();
  const fields: [string, string][] = [
    ['Name', `${input.firstName} ${input.lastName}`.trim()],
    ['E-mail', email],
    ['Phone', input.phone?.trim() || '—'],
    ['Received', receivedAt],
  ];
  if (input.locale) fields.push(['Locale', input.locale]);
  const text = [...fields.map(([label, value]) => `${label}: ${value}`), '', 'Message:', input.message].join('\n');
  const bodyHtml = html`<table role="presentation" cellspacing="0" cellpadding="0" style="margin:0 0 16px;font-size:14px;">
${fields.map(([label, value]) => html`<tr><td style="padding:3px 16px 3px 0;color:${blocks.colors.muted};">${label}</td><td style="padding:3px 0;">${value}</td></tr>`)}
</table>
${blocks.paragraph(blocks.multiline(input.message))}`;
  return compose(
    `Contact form: ${name}`,
    {
      brand,
      preheader: oneLine(input.message, 100),
      heading: `Message from ${name}`,
      bodyHtml,
      bodyText: text,
      footerNote: `Sent by the contact form of ${brand.shopName}. Reply to answer the visitor.`,
    },
    { replyTo: email },
  );
}
