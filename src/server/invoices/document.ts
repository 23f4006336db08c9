/**
 * What an invoice or a credit note says, worked out from the order alone and frozen into the document
 * when it is issued (invoices.document): seller and buyer, the lines with net, rate, VAT and gross, the
 * totals per VAT rate and the grand totals. Money is integer cents; nothing here is computed again when
 * the document is printed, so a printed document always shows what was issued.
 */
import type { OrderItemRow, OrderRow } from '../orders/service.ts';
import type { DocumentLine, DocumentParty, InvoiceDocument, RateTotal } from './shape.ts';

export type DocumentHeader = Pick<InvoiceDocument, 'kind' | 'number' | 'issueDate' | 'supplyDate' | 'seller'>;

function ratesOf(lines: DocumentLine[]): RateTotal[] {
  const byRate = new Map<number, RateTotal>();
  for (const l of lines) {
    const r = byRate.get(l.rateBasisPoints) ?? {
      rateBasisPoints: l.rateBasisPoints,
      netCents: 0,
      vatCents: 0,
      grossCents: 0,
    };
    r.netCents += l.netCents;
    r.vatCents += l.vatCents;
    r.grossCents += l.grossCents;
    byRate.set(l.rateBasisPoints, r);
  }
  // A rate only free lines had (free shipping) has nothing to break down.
  return [...byRate.values()]
    .filter((r) => r.netCents !== 0 || r.grossCents !== 0)
    .sort((a, b) => b.rateBasisPoints - a.rateBasisPoints);
}

function totalsOf(rates: RateTotal[]) {
  return {
    netCents: rates.reduce((s, r) => s + r.netCents, 0),
    vatCents: rates.reduce((s, r) => s + r.vatCents, 0),
    grossCents: rates.reduce((s, r) => s + r.grossCents, 0),
  };
}

function buyerOf(order: OrderRow): DocumentParty {
  const b = order.billing;
  const city = [b.postcode, b.city].filter(Boolean).join(' ');
  return {
    name: [b.firstName, b.lastName].filter(Boolean).join(' '),
    company: b.company ?? '',
    addressLines: [b.address1, b.address2, city, b.state].map((l) => (l ?? '').trim()).filter(Boolean),
    country: b.country ?? '',
    vatId: order.vatId,
    email: b.email ?? '',
  };
}

/**
 * The rate the shipping was taxed at: the order's tax line that carried shipping tax, else the lines' rate
 * (free shipping follows the goods; shipping without tax where the goods had some is untaxed).
 */
function shippingRate(order: OrderRow, items: OrderItemRow[], netCents: number, taxCents: number): number {
  const goods = items.find((i) => i.taxRateBasisPoints > 0)?.taxRateBasisPoints ?? 0;
  if (netCents === 0) return goods;
  if (taxCents === 0) return 0;
  const line = order.taxLines.find((t) => t.shippingTaxCents > 0) ?? order.taxLines[0];
  return line?.rateBasisPoints ?? goods;
}

/** The invoice lines of an order: its items before discounts, the discounts per rate, its shipping. */
export function invoiceLines(order: OrderRow, items: OrderItemRow[]): DocumentLine[] {
  const lines: DocumentLine[] = items.map((i) => ({
    kind: 'item',
    description: i.name,
    sku: i.sku,
    quantity: i.quantity,
    unitNetCents: i.quantity > 0 ? Math.round(i.subtotalCents / i.quantity) : i.subtotalCents,
    rateBasisPoints: i.taxRateBasisPoints,
    netCents: i.subtotalCents,
    vatCents: i.subtotalTaxCents,
    grossCents: i.subtotalCents + i.subtotalTaxCents,
  }));
  const codes = order.couponLines.map((c) => c.code.toUpperCase()).join(', ');
  const discounts = new Map<number, { net: number; vat: number }>();
  for (const i of items) {
    const net = i.subtotalCents - i.totalCents;
    const vat = i.subtotalTaxCents - i.totalTaxCents;
    if (net === 0 && vat === 0) continue;
    const d = discounts.get(i.taxRateBasisPoints) ?? { net: 0, vat: 0 };
    d.net += net;
    d.vat += vat;
    discounts.set(i.taxRateBasisPoints, d);
  }
  for (const [rate, d] of discounts)
    lines.push({
      kind: 'discount',
      description: codes,
      sku: '',
      quantity: 1,
      unitNetCents: -d.net,
      rateBasisPoints: rate,
      netCents: -d.net,
      vatCents: -d.vat,
      grossCents: -(d.net + d.vat),
    });
  for (const s of order.shippingLines)
    lines.push({
      kind: 'shipping',
      description: s.label,
      sku: '',
      quantity: 1,
      unitNetCents: s.totalCents,
      rateBasisPoints: shippingRate(order, items, s.totalCents, s.taxCents),
      netCents: s.totalCents,
      vatCents: s.taxCents,
      grossCents: s.totalCents + s.taxCents,
    });
  return lines;
}

export function invoiceDocument(
  header: DocumentHeader,
  order: OrderRow,
  items: OrderItemRow[],
  orderDate: string,
): InvoiceDocument {
  const lines = invoiceLines(order, items);
  const rates = ratesOf(lines);
  return {
    version: 1,
    ...header,
    locale: order.locale,
    currency: order.currency,
    buyer: buyerOf(order),
    order: {
      id: order.id,
      date: orderDate,
      paymentMethodTitle: order.paymentMethodTitle,
      paymentMethod: order.paymentMethod,
    },
    lines,
    rates,
    totals: totalsOf(rates),
    reverseCharge: order.vatReverseCharge,
    corrects: null,
    reason: '',
  };
}

/** What is left to credit of an invoice per rate, after the credit notes issued for it so far. */
export function remainingByRate(invoice: InvoiceDocument, credited: InvoiceDocument[]): RateTotal[] {
  return invoice.rates
    .map((r) => {
      const before = credited.flatMap((c) => c.rates).filter((c) => c.rateBasisPoints === r.rateBasisPoints);
      return {
        rateBasisPoints: r.rateBasisPoints,
        netCents: r.netCents - before.reduce((s, c) => s + c.netCents, 0),
        vatCents: r.vatCents - before.reduce((s, c) => s + c.vatCents, 0),
        grossCents: r.grossCents - before.reduce((s, c) => s + c.grossCents, 0),
      };
    })
    .filter((r) => r.grossCents > 0);
}

/**
 * The amounts per rate a credit of `amountCents` (gross; null: everything left) stands for. All that is
 * left is credited exactly as invoiced; a part is shared among the rates in proportion to what is left of
 * each (largest remainder, so the parts add up to the cent) and split into net and VAT at the rate.
 */
export function creditByRate(remaining: RateTotal[], amountCents: number | null): RateTotal[] {
  const left = remaining.reduce((s, r) => s + r.grossCents, 0);
  if (amountCents === null || amountCents >= left) return remaining.map((r) => ({ ...r }));
  const shares = remaining.map((r) => {
    const exact = (amountCents * r.grossCents) / left;
    return { r, cents: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let missing = amountCents - shares.reduce((s, x) => s + x.cents, 0);
  for (const x of [...shares].sort((a, b) => b.rest - a.rest)) {
    if (missing <= 0) break;
    x.cents++;
    missing--;
  }
  return shares
    .filter((x) => x.cents > 0)
    .map(({ r, cents }) => {
      const net = Math.round((cents * 10_000) / (10_000 + r.rateBasisPoints));
      return { rateBasisPoints: r.rateBasisPoints, netCents: net, vatCents: cents - net, grossCents: cents };
    });
}

export function creditNoteDocument(
  header: DocumentHeader,
  invoice: InvoiceDocument,
  credit: RateTotal[],
  reason: string,
): InvoiceDocument {
  const lines: DocumentLine[] = credit.map((r) => ({
    kind: 'credit',
    description: invoice.number,
    sku: '',
    quantity: 1,
    unitNetCents: r.netCents,
    rateBasisPoints: r.rateBasisPoints,
    netCents: r.netCents,
    vatCents: r.vatCents,
    grossCents: r.grossCents,
  }));
  const rates = ratesOf(lines);
  return {
    ...invoice,
    ...header,
    lines,
    rates,
    totals: totalsOf(rates),
    corrects: { number: invoice.number, issueDate: invoice.issueDate },
    reason,
  };
}
