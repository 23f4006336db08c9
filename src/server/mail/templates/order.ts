/**
 * The order mails, in the order's language: the confirmation sent when it is placed, the invoice of a
 * payment that came later, and the completion an operator sends with the tracking number.
 */
import { DEFAULT_LOCALE, type LocaleCode } from '../../../lib/i18n/locales.ts';
import { html, oneLine, requireHttpUrl, type SafeHtml } from '../html.ts';
import { blocks, DEFAULT_BRAND, type Brand } from '../layout.ts';
import {
  addressLines,
  compose,
  formatCents,
  formatOrderDate,
  greetingIn,
  mailLanguage,
  mailText,
  type EmailContent,
  type PostalAddress,
} from './shared.ts';

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

export function orderConfirmation(input: OrderConfirmationInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const locale = input.locale ?? DEFAULT_LOCALE.code;
  const say = mailText(locale);
  const orderUrl = requireHttpUrl(input.orderUrl, 'orderUrl');
  const money = (cents: number) => formatCents(cents, input.currency, mailLanguage(locale));
  const orderNumber = oneLine(input.orderNumber, 40);
  const date = formatOrderDate(input.orderDate, locale);
  const greeting = greetingIn(locale, input.customerName);

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
// Invoice of a payment that came after the confirmation

export type OrderInvoiceInput = {
  invoiceNumber: string;
  orderNumber: string;
  /** The order-received page, carrying the order key. */
  orderUrl: string;
  /** The order's language: the mail is written in it (default English). */
  locale?: LocaleCode;
};

/** A short note that the invoice (attached by the queue) is there, with a link to the order. */
export function orderInvoice(input: OrderInvoiceInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const orderUrl = requireHttpUrl(input.orderUrl, 'orderUrl');
  const say = mailText(input.locale ?? DEFAULT_LOCALE.code);
  const params = { number: oneLine(input.invoiceNumber, 40), order: oneLine(input.orderNumber, 40) };
  const subject = say('invoice.subject', params);
  const body = say('invoice.body', params);
  return compose(subject, {
    brand,
    preheader: body,
    heading: subject,
    bodyHtml: html`${blocks.paragraph(body)}
${blocks.button(orderUrl, say('order.view'))}
${blocks.fallbackLink(orderUrl, say('fallbackLink'))}`,
    bodyText: `${body}\n\n${say('order.viewLink', { url: orderUrl })}`,
    footerNote: say('order.footer', { shop: brand.shopName }),
    language: mailLanguage(input.locale ?? DEFAULT_LOCALE.code),
  });
}

// ---------------------------------------------------------------------------------------------------
// Order completed (sent by an operator's completion)

export type OrderCompletedInput = {
  orderNumber: string;
  customerName?: string | null;
  lineItems: { name: string; quantity: number }[];
  trackingNumber?: string | null;
  trackingCarrier?: string | null;
  trackingUrl?: string | null;
  /** The operator's note to the customer. */
  note?: string | null;
  orderUrl: string;
  /** The order's language: the mail is written in it (default English). */
  locale?: LocaleCode;
};

/** What was shipped, the tracking number (and carrier / link when given) and the order page. */
export function orderCompleted(input: OrderCompletedInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const locale = input.locale ?? DEFAULT_LOCALE.code;
  const say = mailText(locale);
  const orderUrl = requireHttpUrl(input.orderUrl, 'orderUrl');
  const trackingUrl = input.trackingUrl ? requireHttpUrl(input.trackingUrl, 'trackingUrl') : null;
  const number = oneLine(input.orderNumber, 40);
  const shop = brand.shopName;
  const greeting = greetingIn(locale, input.customerName);
  const intro = say('completed.intro', { number });
  const tracking = input.trackingNumber
    ? `${say('completed.tracking', { tracking: oneLine(input.trackingNumber, 100) })}${input.trackingCarrier ? ` (${oneLine(input.trackingCarrier, 60)})` : ''}`
    : null;
  const items = input.lineItems.map((i) => `${i.quantity} × ${oneLine(i.name, 120)}`);
  const text = [
    greeting,
    '',
    intro,
    '',
    ...items,
    '',
    ...(tracking ? [tracking, ...(trackingUrl ? [say('completed.trackLink', { url: trackingUrl })] : []), ''] : []),
    ...(input.note ? [input.note.trim(), ''] : []),
    say('completed.orderLink', { url: orderUrl }),
  ].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(intro)}
<ul style="margin:0 0 14px;padding-left:20px;">${items.map((i) => html`<li>${i}</li>`)}</ul>
${tracking ? blocks.paragraph(html`<strong>${tracking}</strong>`) : ''}
${trackingUrl ? blocks.button(trackingUrl, say('completed.track')) : ''}
${input.note ? blocks.paragraph(blocks.multiline(input.note.trim())) : ''}
${blocks.button(orderUrl, say('order.view'))}
${blocks.fallbackLink(orderUrl, say('fallbackLink'))}`;
  return compose(say('completed.subject', { shop, number }), {
    brand,
    preheader: tracking ?? intro,
    heading: say('completed.heading', { number }),
    bodyHtml,
    bodyText: text,
    footerNote: say('completed.footer', { shop, number }),
    language: mailLanguage(locale),
  });
}
