/**
 * The "your order is complete" e-mail an operator's completion sends: what was shipped, the tracking
 * number (and carrier / link when given) and the order page. Built with the mail module's layout and
 * escaping, like the shop's other messages.
 */
import { html, oneLine, requireHttpUrl } from '../mail/html.ts';
import { blocks, DEFAULT_BRAND, renderHtmlLayout, renderTextLayout, type Brand } from '../mail/layout.ts';
import type { EmailContent } from '../mail/index.ts';

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
};

export function orderCompleted(input: OrderCompletedInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const orderUrl = requireHttpUrl(input.orderUrl, 'orderUrl');
  const trackingUrl = input.trackingUrl ? requireHttpUrl(input.trackingUrl, 'trackingUrl') : null;
  const number = oneLine(input.orderNumber, 40);
  const greeting = input.customerName ? `Hi ${oneLine(input.customerName, 60)},` : 'Hello,';
  const intro = `Your order #${number} is complete and on its way.`;
  const tracking = input.trackingNumber
    ? `Tracking number: ${oneLine(input.trackingNumber, 100)}${input.trackingCarrier ? ` (${oneLine(input.trackingCarrier, 60)})` : ''}`
    : null;
  const items = input.lineItems.map((i) => `${i.quantity} × ${oneLine(i.name, 120)}`);
  const text = [
    greeting,
    '',
    intro,
    '',
    ...items,
    '',
    ...(tracking ? [tracking, ...(trackingUrl ? [`Track it: ${trackingUrl}`] : []), ''] : []),
    ...(input.note ? [input.note.trim(), ''] : []),
    `Your order: ${orderUrl}`,
  ].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(intro)}
<ul style="margin:0 0 14px;padding-left:20px;">${items.map((i) => html`<li>${i}</li>`)}</ul>
${tracking ? blocks.paragraph(html`<strong>${tracking}</strong>`) : ''}
${trackingUrl ? blocks.button(trackingUrl, 'Track your parcel') : ''}
${input.note ? blocks.paragraph(blocks.multiline(input.note.trim())) : ''}
${blocks.button(orderUrl, 'View your order')}
${blocks.fallbackLink(orderUrl)}`;
  const layout = {
    brand,
    preheader: tracking ?? intro,
    heading: `Order #${number} is complete`,
    bodyHtml,
    bodyText: text,
    footerNote: `You receive this e-mail because you placed order #${number} at ${brand.shopName}.`,
  };
  return {
    subject: `Your ${brand.shopName} order #${number} is complete`,
    text: renderTextLayout(layout),
    html: renderHtmlLayout(layout),
  };
}
