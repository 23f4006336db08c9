/**
 * The messages the shop sends, each built in a plain-text and an HTML version from a plain typed input.
 * Inputs are the mail module's own shapes (not other domains' rows), so orders, accounts, contact and the
 * newsletter each map their data here. Every interpolated value is escaped by `html`; links must be
 * absolute http(s) URLs; shopper text that reaches a subject is flattened to one line.
 *
 * The result spreads straight into sendMail: `sendMail({ to, ...passwordReset({ resetUrl }) })`.
 */
import { formatAddress } from '../../lib/address/format.ts';
import { requireEmailAddress } from './address.ts';
import { html, oneLine, requireHttpUrl, type SafeHtml } from './html.ts';
import { blocks, DEFAULT_BRAND, renderHtmlLayout, renderTextLayout, type Brand, type LayoutInput } from './layout.ts';
import { DEFAULT_LOCALE, localeByCode, type LocaleCode } from '../../lib/i18n/locales.ts';
import { renderText, text as engineText, type TextParam } from '../i18n/text.ts';

/** A mail's text in `locale`: `key` names an `engine.mail.` string of locales/<code>.json. */
const mailText = (locale: LocaleCode) => (key: string, params?: Record<string, TextParam>) =>
  renderText(engineText(`mail.${key}`, params), locale);

export { DEFAULT_BRAND, type Brand } from './layout.ts';

export type EmailContent = {
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  headers?: Record<string, string>;
};

function compose(
  subject: string,
  layout: LayoutInput,
  extra: Pick<EmailContent, 'replyTo' | 'headers'> = {},
): EmailContent {
  return { subject, text: renderTextLayout(layout), html: renderHtmlLayout(layout), ...extra };
}

// ---------------------------------------------------------------------------------------------------
// Order confirmation

export type PostalAddress = {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  postcode?: string | null;
  country?: string | null;
  phone?: string | null;
  email?: string | null;
};

export type OrderConfirmationInput = {
  orderNumber: string;
  orderDate: Date | string;
  /** The billing first name, for the greeting. */
  customerName?: string | null;
  /** ISO 4217 code of every amount below (EUR). */
  currency: string;
  /**
   * Amounts are integer cents, as everywhere in the engine. A line's amount is before discounts, so the
   * lines add up to the subtotal and the discount is a row of its own.
   */
  lineItems: { name: string; variation?: string | null; quantity: number; totalCents: number }[];
  subtotalCents: number;
  discountCents?: number;
  shippingCents?: number;
  shippingMethod?: string | null;
  taxCents?: number;
  /** The amounts include their tax: the total says how much (WooCommerce's "includes € VAT") instead of a tax row. */
  taxIncluded?: boolean;
  totalCents: number;
  /** The business customer's VAT ID, shown with the billing address. */
  vatId?: string | null;
  /** The order's VAT note (the reverse charge's), shown under the totals. */
  vatNote?: string | null;
  paymentMethodTitle: string;
  /** Plain text shown under the totals, e.g. where to send a crypto payment or that payment is due on delivery. */
  paymentInstructions?: string | null;
  billingAddress?: PostalAddress | null;
  shippingAddress?: PostalAddress | null;
  customerNote?: string | null;
  /** The order-received page, carrying the order key. */
  orderUrl: string;
  /** The language the order was placed in: the mail is written in it (default English). */
  locale?: LocaleCode;
};

/**
 * Integer cents → "€1,349.00" (en-US), "1.349,00 €" (de-DE) without going through a float: Intl formats
 * the decimal string exactly.
 */
export function formatCents(cents: number, currency: string, language = 'en-US'): string {
  if (!Number.isSafeInteger(cents)) throw new TypeError(`amount must be integer cents (got ${cents})`);
  const abs = Math.abs(cents);
  const decimal = `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return new Intl.NumberFormat(language, { style: 'currency', currency }).format(decimal as `${number}`);
}

/** The mail's language as Intl knows it; English mails keep the day-month-year date they always had. */
const mailLanguage = (locale: LocaleCode) => (localeByCode(locale) ?? DEFAULT_LOCALE).bcp47;
const dateLanguage = (locale: LocaleCode) => (locale === DEFAULT_LOCALE.code ? 'en-GB' : mailLanguage(locale));

function formatOrderDate(value: Date | string, locale: LocaleCode = DEFAULT_LOCALE.code): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`orderDate is not a date (got ${JSON.stringify(value)})`);
  return new Intl.DateTimeFormat(dateLanguage(locale), { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

const countryNames = new Map<LocaleCode, Intl.DisplayNames>();

/** The postal address as its country writes it (src/lib/address/format.ts, as the order pages), then contact. */
function addressLines(address: PostalAddress, locale: LocaleCode = DEFAULT_LOCALE.code): string[] {
  let names = countryNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([mailLanguage(locale)], { type: 'region' });
    countryNames.set(locale, names);
  }
  const countries = names;
  return [
    ...formatAddress(address, { countryName: (code) => countries.of(code) ?? code }),
    address.phone,
    address.email,
  ]
    .map((line) => (line ?? '').trim())
    .filter((line) => line !== '');
}

export function orderConfirmation(input: OrderConfirmationInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const locale = input.locale ?? DEFAULT_LOCALE.code;
  const say = mailText(locale);
  const orderUrl = requireHttpUrl(input.orderUrl, 'orderUrl');
  const money = (cents: number) => formatCents(cents, input.currency, mailLanguage(locale));
  const orderNumber = oneLine(input.orderNumber, 40);
  const date = formatOrderDate(input.orderDate, locale);
  const greeting = input.customerName ? say('greeting', { name: oneLine(input.customerName, 60) }) : say('hello');

  const totals: [string, string][] = [[say('order.subtotal'), money(input.subtotalCents)]];
  if (input.discountCents) totals.push([say('order.discount'), `-${money(Math.abs(input.discountCents))}`]);
  if (input.shippingCents !== undefined || input.shippingMethod) {
    totals.push([
      input.shippingMethod
        ? say('order.shippingWith', { method: oneLine(input.shippingMethod, 60) })
        : say('order.shipping'),
      money(input.shippingCents ?? 0),
    ]);
  }
  if (input.taxCents && !input.taxIncluded) totals.push([say('order.tax'), money(input.taxCents)]);
  const totalLabel = say('order.total');
  totals.push([
    totalLabel,
    input.taxIncluded && input.taxCents
      ? say('order.totalInclTax', { total: money(input.totalCents), tax: money(input.taxCents) })
      : money(input.totalCents),
  ]);
  totals.push([say('order.paymentMethod'), input.paymentMethodTitle]);

  const addresses: [string, string[]][] = [];
  if (input.billingAddress)
    addresses.push([
      say('order.billingAddress'),
      [
        ...addressLines(input.billingAddress, locale),
        ...(input.vatId ? [say('order.vatId', { vatId: oneLine(input.vatId, 40) })] : []),
      ],
    ]);
  if (input.shippingAddress)
    addresses.push([say('order.shippingAddress'), addressLines(input.shippingAddress, locale)]);
  // The intro names the order in bold in the HTML version: the sentence is split where the number goes.
  const [introBefore = '', introAfter = ''] = say('order.intro', { date }).split('{number}');

  const itemLabel = (item: OrderConfirmationInput['lineItems'][number]) =>
    item.variation ? `${item.name} (${item.variation})` : item.name;

  const text = [
    greeting,
    '',
    say('order.intro', { number: `#${orderNumber}`, date }),
    '',
    ...input.lineItems.map((item) => `${item.quantity} × ${itemLabel(item)}  ${money(item.totalCents)}`),
    '',
    ...totals.map(([label, value]) => `${label}: ${value}`),
    ...(input.vatNote ? ['', input.vatNote] : []),
    ...(input.paymentInstructions ? ['', input.paymentInstructions] : []),
    ...addresses.flatMap(([title, lines]) => ['', `${title}:`, ...lines.map((l) => `  ${l}`)]),
    ...(input.customerNote ? ['', `${say('order.yourNote')}:`, input.customerNote] : []),
    '',
    say('order.viewLink', { url: orderUrl }),
  ].join('\n');

  const cell = `padding:6px 0;border-bottom:1px solid ${blocks.colors.rule};`;
  const bodyHtml: SafeHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(introBefore, html`<strong>#${orderNumber}</strong>`, introAfter)}
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="margin:0 0 16px;font-size:14px;">
${input.lineItems.map((item) => html`<tr><td style="${cell}">${item.quantity} × ${itemLabel(item)}</td><td align="right" style="${cell}">${money(item.totalCents)}</td></tr>`)}
${totals.map(([label, value]) => {
  const weight = label === totalLabel ? 'font-weight:700;' : '';
  return html`<tr><td style="padding:4px 0;${weight}">${label}</td><td align="right" style="padding:4px 0;${weight}">${value}</td></tr>`;
})}
</table>
${input.vatNote ? blocks.paragraph(input.vatNote) : ''}
${input.paymentInstructions ? blocks.paragraph(blocks.multiline(input.paymentInstructions)) : ''}
${addresses.map(([title, lines]) => blocks.paragraph(html`<strong>${title}</strong><br>`, blocks.multiline(lines.join('\n'))))}
${input.customerNote ? blocks.paragraph(html`<strong>${say('order.yourNote')}</strong><br>`, blocks.multiline(input.customerNote)) : ''}
${blocks.button(orderUrl, say('order.view'))}
${blocks.fallbackLink(orderUrl, say('fallbackLink'))}`;

  return compose(say('order.subject', { shop: brand.shopName, number: orderNumber }), {
    brand,
    preheader: say('order.preheader', { number: orderNumber, total: money(input.totalCents) }),
    heading: say('order.heading', { number: orderNumber }),
    bodyHtml,
    bodyText: text,
    footerNote: say('order.footer', { shop: brand.shopName }),
    language: mailLanguage(locale),
  });
}

// ---------------------------------------------------------------------------------------------------
// Password reset

export type PasswordResetInput = {
  /** /my-account/lost-password?key=…&login=… */
  resetUrl: string;
  customerName?: string | null;
  /** How long the key stays valid, said in the message so nobody is surprised by an expired link. */
  validForMinutes?: number;
  /** The account's language: the mail is written in it (default English). */
  locale?: LocaleCode;
};

/** The account mails' texts in `locale`, with the greeting and the link's validity they share. */
function accountMailTexts(input: { customerName?: string | null; validForMinutes?: number; locale?: LocaleCode }) {
  const locale = input.locale ?? DEFAULT_LOCALE.code;
  const say = mailText(locale);
  return {
    say,
    greeting: input.customerName ? say('greeting', { name: oneLine(input.customerName, 60) }) : say('hello'),
    validity: input.validForMinutes
      ? say('linkExpires', { duration: formatDuration(input.validForMinutes, locale) })
      : say('linkOnce'),
    language: mailLanguage(locale),
  };
}

export function passwordReset(input: PasswordResetInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const resetUrl = requireHttpUrl(input.resetUrl, 'resetUrl');
  const { say, greeting, validity, language } = accountMailTexts(input);
  const shop = brand.shopName;
  const ignore = say('reset.ignore');
  const text = [greeting, '', say('reset.intro', { shop }), '', resetUrl, '', validity, ignore].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(say('reset.introButton', { shop }))}
${blocks.button(resetUrl, say('reset.button'))}
${blocks.fallbackLink(resetUrl, say('fallbackLink'))}
${blocks.paragraph(validity)}
${blocks.muted(ignore)}`;
  return compose(say('reset.subject', { shop }), {
    brand,
    preheader: say('reset.preheader'),
    heading: say('reset.heading'),
    bodyHtml,
    bodyText: text,
    footerNote: say('reset.footer', { shop }),
    language,
  });
}

// ---------------------------------------------------------------------------------------------------
// E-mail address verification

export type EmailVerificationInput = {
  /** /my-account/verify-email?key=… */
  verifyUrl: string;
  customerName?: string | null;
  validForMinutes?: number;
  /** The account's language: the mail is written in it (default English). */
  locale?: LocaleCode;
};

/**
 * Sent on registration (account page or checkout) and on request from the account details. The link
 * works only while logged in to the account it was sent for, which the message says, so that a person
 * who receives it for an account they did not create cannot confirm it for someone else.
 */
export function emailVerification(input: EmailVerificationInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const verifyUrl = requireHttpUrl(input.verifyUrl, 'verifyUrl');
  const { say, greeting, validity, language } = accountMailTexts(input);
  const shop = brand.shopName;
  const ask = say('verify.ask', { shop });
  const ignore = say('verify.ignore', { shop });
  const text = [greeting, '', ask, '', verifyUrl, '', validity, ignore].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(ask)}
${blocks.button(verifyUrl, say('verify.button'))}
${blocks.fallbackLink(verifyUrl, say('fallbackLink'))}
${blocks.paragraph(validity)}
${blocks.muted(ignore)}`;
  return compose(say('verify.subject', { shop }), {
    brand,
    preheader: say('verify.preheader'),
    heading: say('verify.heading'),
    bodyHtml,
    bodyText: text,
    footerNote: say('verify.footer', { shop }),
    language,
  });
}

// ---------------------------------------------------------------------------------------------------
// Linking a login provider to an existing account

export type AccountLinkInput = {
  /** /my-account/link-account?key=… */
  linkUrl: string;
  /** The login provider's name as on the login button, e.g. "Google". */
  providerName: string;
  customerName?: string | null;
  validForMinutes?: number;
};

/**
 * Sent when someone who signed in with a login provider using this address asks to link that login to
 * the existing account by e-mail instead of with its password. Opening the link takes the account over
 * for the mailbox's owner, so the message says what else it does: every other login ends and the
 * account's password is removed.
 */
export function accountLink(input: AccountLinkInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const linkUrl = requireHttpUrl(input.linkUrl, 'linkUrl');
  const provider = oneLine(input.providerName, 60);
  const greeting = input.customerName ? `Hi ${oneLine(input.customerName, 60)},` : 'Hello,';
  const ask = `You signed in with ${provider} using this e-mail address, which already has a ${brand.shopName} account. Open the link below in the same browser to link your ${provider} login to that account and log in.`;
  const effect = `This also ends every other login of the account and removes its password: from then on you log in with ${provider}, or choose a new password with "Forgot your password?".`;
  const validity = input.validForMinutes
    ? `The link works once and expires in ${formatDuration(input.validForMinutes)}.`
    : 'The link works once.';
  const ignore = 'If you did not ask for this, ignore this e-mail: nothing changes.';
  const text = [greeting, '', ask, '', linkUrl, '', effect, '', validity, ignore].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(ask)}
${blocks.button(linkUrl, `Link ${provider} and log in`)}
${blocks.fallbackLink(linkUrl)}
${blocks.paragraph(effect)}
${blocks.paragraph(validity)}
${blocks.muted(ignore)}`;
  return compose(`Link your ${provider} login to your ${brand.shopName} account`, {
    brand,
    preheader: `Confirm that the ${brand.shopName} account with this address is yours.`,
    heading: `Link your ${provider} login`,
    bodyHtml,
    bodyText: text,
    footerNote: `You receive this e-mail because a ${provider} login with this address asked to use your ${brand.shopName} account.`,
  });
}

function formatDuration(minutes: number, locale: LocaleCode = DEFAULT_LOCALE.code): string {
  const say = mailText(locale);
  if (minutes % 1440 === 0)
    return minutes === 1440 ? say('duration.hours', { count: 24 }) : say('duration.days', { count: minutes / 1440 });
  if (minutes % 60 === 0)
    return minutes === 60 ? say('duration.oneHour') : say('duration.hours', { count: minutes / 60 });
  return say('duration.minutes', { count: minutes });
}

// ---------------------------------------------------------------------------------------------------
// E-mail address changed (to the previous address)

export type EmailChangedInput = {
  /** The new address with most of it hidden (the mail goes to the old one, which may not be the owner's any more). */
  maskedNewAddress: string;
  /** /my-account/email-change-report?token=…: restores this address, ends every login, mails a reset link. */
  reportUrl: string;
  customerName?: string | null;
  /** How long the report link works. */
  validForDays?: number;
};

/**
 * Sent to the previous address when an account's e-mail address changes: the owner learns of a change
 * they did not make while the old address still reaches them, and can undo it with one link.
 */
export function emailChanged(input: EmailChangedInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const reportUrl = requireHttpUrl(input.reportUrl, 'reportUrl');
  const masked = oneLine(input.maskedNewAddress, 120);
  const greeting = input.customerName ? `Hi ${oneLine(input.customerName, 60)},` : 'Hello,';
  const news = `The e-mail address of your ${brand.shopName} account was changed to ${masked}. From now on, account e-mails go to that address and you log in with it.`;
  const fine = 'If you made this change, there is nothing more to do.';
  const notMe = `If you did not, open the link below: it restores this address, ends every login of the account and sends you a link to choose a new password.`;
  const validity = input.validForDays
    ? `The link works for ${input.validForDays === 1 ? '1 day' : `${input.validForDays} days`}.`
    : '';
  const text = [greeting, '', news, '', fine, notMe, '', reportUrl, ...(validity ? ['', validity] : [])].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(news)}
${blocks.paragraph(fine)}
${blocks.paragraph(notMe)}
${blocks.button(reportUrl, 'This wasn’t me')}
${blocks.fallbackLink(reportUrl)}
${validity ? blocks.muted(validity) : ''}`;
  return compose(`Your ${brand.shopName} e-mail address was changed`, {
    brand,
    preheader: `Your account now uses ${masked}.`,
    heading: 'Your e-mail address was changed',
    bodyHtml,
    bodyText: text,
    footerNote: `You receive this e-mail because it was the address of a ${brand.shopName} account until now.`,
  });
}

// ---------------------------------------------------------------------------------------------------
// Contact form → support

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

// ---------------------------------------------------------------------------------------------------
// Newsletter (double opt-in)

export type NewsletterConfirmInput = { confirmUrl: string };

export function newsletterConfirm(input: NewsletterConfirmInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const confirmUrl = requireHttpUrl(input.confirmUrl, 'confirmUrl');
  const ignore = 'If you did not sign up, ignore this e-mail and you will not hear from us again.';
  const text = [
    `Please confirm that you want to receive the ${brand.shopName} newsletter:`,
    '',
    confirmUrl,
    '',
    ignore,
  ].join('\n');
  const bodyHtml = html`${blocks.paragraph(`Please confirm that you want to receive the ${brand.shopName} newsletter.`)}
${blocks.button(confirmUrl, 'Confirm my subscription')}
${blocks.fallbackLink(confirmUrl)}
${blocks.muted(ignore)}`;
  return compose(`Confirm your subscription to the ${brand.shopName} newsletter`, {
    brand,
    preheader: 'One click to confirm your subscription.',
    heading: 'Confirm your subscription',
    bodyHtml,
    bodyText: text,
    footerNote: `You receive this e-mail because this address was entered in the newsletter form of ${brand.shopName}.`,
  });
}

export type NewsletterWelcomeInput = {
  unsubscribeUrl: string;
  /**
   * true when the unsubscribe URL also accepts a body-less POST (RFC 8058 one-click), which large mailbox
   * providers ask bulk senders for; only claim it when the route really does it.
   */
  oneClickUnsubscribe?: boolean;
};

export function newsletterWelcome(input: NewsletterWelcomeInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const unsubscribeUrl = requireHttpUrl(input.unsubscribeUrl, 'unsubscribeUrl');
  const text = [
    `You are subscribed to the ${brand.shopName} newsletter. We write when there is news worth reading: new hardware, OS releases and network updates.`,
    '',
    `Unsubscribe at any time: ${unsubscribeUrl}`,
  ].join('\n');
  const bodyHtml = html`${blocks.paragraph(`You are subscribed to the ${brand.shopName} newsletter. We write when there is news worth reading: new hardware, OS releases and network updates.`)}
${blocks.muted('Changed your mind? ', html`<a href="${unsubscribeUrl}" style="color:${blocks.colors.accent};">Unsubscribe</a>`, ' at any time.')}`;
  const headers: Record<string, string> = { 'List-Unsubscribe': `<${unsubscribeUrl}>` };
  if (input.oneClickUnsubscribe) headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  return compose(
    `Welcome to the ${brand.shopName} newsletter`,
    {
      brand,
      preheader: 'Your subscription is confirmed.',
      heading: 'Welcome aboard',
      bodyHtml,
      bodyText: text,
      footerNote: `You receive this e-mail because you confirmed your subscription to the ${brand.shopName} newsletter.`,
    },
    { headers },
  );
}
