/**
 * Prints an issued invoice or credit note as an A4 PDF (pdfkit), in the language of its order, amounts
 * formatted by Intl for that language ("209,00 €" in German). Only the frozen document is read: a
 * document prints the same today and in ten years. The built-in Helvetica covers the Western European
 * letters of the shop's six languages (WinAnsi), so no font file has to ship with the engine.
 */
import PDFDocument from 'pdfkit';
import de_DE from '../../../locales/de_DE.json' with { type: 'json' };
import en_US from '../../../locales/en_US.json' with { type: 'json' };
import es_ES from '../../../locales/es_ES.json' with { type: 'json' };
import fr_FR from '../../../locales/fr_FR.json' with { type: 'json' };
import it_IT from '../../../locales/it_IT.json' with { type: 'json' };
import pt_BR from '../../../locales/pt_BR.json' with { type: 'json' };
import type { DocumentLine, InvoiceDocument } from './shape.ts';

const STRINGS: Record<string, Record<string, string>> = { en_US, de_DE, es_ES, fr_FR, it_IT, pt_BR };
const BCP47: Record<string, string> = {
  en_US: 'en-US',
  de_DE: 'de-DE',
  es_ES: 'es-ES',
  fr_FR: 'fr-FR',
  it_IT: 'it-IT',
  pt_BR: 'pt-BR',
};

/** The characters Helvetica (WinAnsi) cannot show, as the nearest ones it can. */
function printable(text: string): string {
  return text
    .replace(/[\u202f\u2009]/g, '\u00a0')
    .replace(/\u2212/g, '-')
    .replace(
      /[^\u0000-\u00ff\u20ac\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2020\u2021\u2022\u2026\u2030\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2122]/g,
      '?',
    );
}

export type InvoiceText = {
  t: (key: string, params?: Record<string, string | number>) => string;
  money: (cents: number) => string;
  rate: (basisPoints: number) => string;
  date: (isoDay: string) => string;
  country: (code: string) => string;
};

/** The words and formats of a document's language (English for a locale the shop does not have). */
export function invoiceText(locale: string, currency: string): InvoiceText {
  const strings = STRINGS[locale] ?? en_US;
  const tag = BCP47[locale] ?? 'en-US';
  const money = new Intl.NumberFormat(tag, { style: 'currency', currency });
  const percent = new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 2 });
  const day = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: 'UTC' });
  const regions = new Intl.DisplayNames([tag], { type: 'region' });
  return {
    t: (key, params) => {
      const template = strings[`invoice.${key}`] ?? en_US[`invoice.${key}` as keyof typeof en_US] ?? key;
      return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
        params && Object.hasOwn(params, name) ? String(params[name]) : whole,
      );
    },
    money: (cents) => printable(money.format(cents / 100)),
    rate: (bp) => printable(percent.format(bp / 10_000)),
    date: (isoDay) => printable(day.format(new Date(`${isoDay}T00:00:00Z`))),
    country: (code) => {
      try {
        return (code && regions.of(code)) || code;
      } catch {
        return code;
      }
    },
  };
}

function paymentLabel(doc: InvoiceDocument, text: InvoiceText): string {
  const known: Record<string, string | undefined> = {
    cod: STRINGS[doc.locale]?.['checkout.payment.cod'],
    stripe: STRINGS[doc.locale]?.['checkout.payment.card'],
    kda: text.t('payment.kda'),
  };
  return known[doc.order.paymentMethod] ?? doc.order.paymentMethodTitle;
}

function lineDescription(line: DocumentLine, text: InvoiceText): string {
  if (line.kind === 'shipping') return text.t('shipping', { method: line.description });
  if (line.kind === 'discount') return text.t('discount', { codes: line.description }).trim();
  if (line.kind === 'credit') return text.t('credit', { number: line.description });
  return line.description;
}

/** "Artikelnummer: MF-SWAG-MUG", under the product's name: in brackets after it, a long SKU broke at its hyphens. */
function skuLabel(doc: InvoiceDocument, sku: string): string {
  const template = STRINGS[doc.locale]?.['product.sku'] ?? en_US['product.sku'];
  return template.replace('{sku}', sku);
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const INK = '#1f2937';
const MUTED = '#6b7280';
const RULE = '#d1d5db';
const ACCENT = '#0f766e';

/** The PDF of a document, as bytes. */
export function renderInvoicePdf(doc: InvoiceDocument, brand: string): Promise<Buffer> {
  const text = invoiceText(doc.locale, doc.currency);
  const isCredit = doc.kind === 'credit-note';
  const title = isCredit ? text.t('creditNoteTitle') : text.t('title');
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: printable(`${title} ${doc.number}`), Author: printable(doc.seller.name), Creator: printable(brand) },
    lang: (BCP47[doc.locale] ?? 'en-US').toLowerCase(),
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const right = A4.width - MARGIN;
  const width = right - MARGIN;
  const p = (s: string) => printable(s);

  // The footer on every page: the seller's name and registration, then the bank details, each wrapped
  // rather than cut (an IBAN must be readable to the end). Measured now, so the content stops above it.
  const FOOTER_SIZE = 7.5;
  const footerWidth = width - 90;
  const footerText = p(
    [[doc.seller.name, doc.seller.registration].filter(Boolean).join(' · '), doc.seller.bank]
      .filter(Boolean)
      .join('\n'),
  );
  const footerHeight = pdf.font('Helvetica').fontSize(FOOTER_SIZE).heightOfString(footerText, { width: footerWidth });
  const footerTop = A4.height - MARGIN - footerHeight;
  /** Where a page's content must end. */
  const contentBottom = footerTop - 14;

  // Brand and seller, top.
  pdf.fillColor(ACCENT).font('Helvetica-Bold').fontSize(20).text(p(brand), MARGIN, MARGIN);
  // The country closes an address (none is printed alone); documents issued before the seller's country
  // was kept have it in their address lines, if anywhere.
  const sellerAddress =
    doc.seller.addressLines.length && doc.seller.country
      ? [...doc.seller.addressLines, text.country(doc.seller.country)]
      : doc.seller.addressLines;
  const sellerLines = [
    doc.seller.name,
    ...sellerAddress,
    doc.seller.vatId ? `${text.t('vatId')}: ${doc.seller.vatId}` : '',
    doc.seller.taxNumber ? `${text.t('taxNumber')}: ${doc.seller.taxNumber}` : '',
    doc.seller.email,
  ].filter(Boolean);
  pdf.fillColor(MUTED).font('Helvetica').fontSize(8.5);
  pdf.text(p(sellerLines.join('\n')), MARGIN + width / 2, MARGIN, { width: width / 2, align: 'right' });
  const headerBottom = Math.max(pdf.y, MARGIN + 40);

  // The sender's line above the buyer (a window envelope shows both), then the buyer (left) and the
  // document's facts (right), below however many lines the sender's took.
  pdf
    .fillColor(MUTED)
    .fontSize(8)
    .text(p([doc.seller.name, sellerAddress.join(', ')].filter(Boolean).join(' · ')), MARGIN, headerBottom + 16, {
      width: width / 2,
    });
  const top = pdf.y + 6;
  pdf
    .fillColor(MUTED)
    .fontSize(8)
    .text(p(text.t('buyer').toUpperCase()), MARGIN, top);
  const buyer = [
    doc.buyer.company,
    doc.buyer.name,
    ...doc.buyer.addressLines,
    text.country(doc.buyer.country),
    doc.buyer.vatId ? `${text.t('vatId')}: ${doc.buyer.vatId}` : '',
  ].filter(Boolean);
  pdf
    .fillColor(INK)
    .font('Helvetica')
    .fontSize(10)
    .text(p(buyer.join('\n')), MARGIN, top + 12, { width: width / 2 - 10 });
  const buyerBottom = pdf.y;

  const facts: [string, string][] = [
    [isCredit ? text.t('creditNoteNumber') : text.t('number'), doc.number],
    [text.t('issueDate'), text.date(doc.issueDate)],
    [text.t('supplyDate'), text.date(doc.supplyDate)],
    [text.t('orderNumber'), String(doc.order.id)],
    [text.t('orderDate'), text.date(doc.order.date)],
    [text.t('paymentMethod'), paymentLabel(doc, text)],
  ];
  let fy = top;
  const factX = MARGIN + width / 2 + 20;
  for (const [label, value] of facts) {
    // The next fact goes below the taller of label and value: a label may take two lines
    // ("Nummer der Rechnungskorrektur").
    pdf.fillColor(MUTED).font('Helvetica').fontSize(9).text(p(label), factX, fy, { width: 110 });
    const labelBottom = pdf.y;
    pdf
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(9)
      .text(p(value), factX + 110, fy, { width: right - factX - 110, align: 'right' });
    fy = Math.max(labelBottom + 2, pdf.y + 2, fy + 13);
  }

  // Title.
  let y = Math.max(buyerBottom, fy) + 28;
  pdf
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(p(`${title} ${doc.number}`), MARGIN, y);
  y = pdf.y + 4;
  if (doc.corrects) {
    pdf
      .fillColor(INK)
      .font('Helvetica')
      .fontSize(10)
      .text(p(text.t('corrects', { number: doc.corrects.number, date: text.date(doc.corrects.issueDate) })), MARGIN, y);
    if (doc.reason) pdf.text(p(text.t('reason', { reason: doc.reason })), MARGIN, pdf.y + 2, { width });
    y = pdf.y + 4;
  }
  y += 10;

  // Lines.
  const DESCRIPTION_WIDTH = 172;
  const cols = [
    { key: 'description', x: MARGIN, w: DESCRIPTION_WIDTH, align: 'left' as const },
    { key: 'quantity', x: MARGIN + 174, w: 32, align: 'right' as const },
    { key: 'unitNet', x: MARGIN + 208, w: 84, align: 'right' as const },
    { key: 'rate', x: MARGIN + 294, w: 44, align: 'right' as const },
    { key: 'net', x: MARGIN + 340, w: 54, align: 'right' as const },
    { key: 'vat', x: MARGIN + 396, w: 46, align: 'right' as const },
    { key: 'gross', x: MARGIN + 444, w: width - 444, align: 'right' as const },
  ];
  const col = (key: string) => cols.find((c) => c.key === key)!;
  /** The height of column labels at 8 pt: some languages' labels take two lines ("Taux de TVA"). */
  const labelsHeight = (keys: string[]) =>
    Math.max(
      ...keys.map((key) =>
        pdf
          .font('Helvetica-Bold')
          .fontSize(8)
          .heightOfString(p(text.t(`col.${key}`)), { width: col(key).w }),
      ),
    );
  const header = () => {
    const h = labelsHeight(cols.map((c) => c.key));
    pdf.rect(MARGIN, y - 4, width, h + 8).fill('#f3f4f6');
    pdf.fillColor(MUTED).font('Helvetica-Bold').fontSize(8);
    for (const c of cols) pdf.text(p(text.t(`col.${c.key}`)), c.x, y, { width: c.w, align: c.align });
    y += h + 10;
  };
  header();
  pdf.font('Helvetica').fontSize(9);
  for (const line of doc.lines) {
    const cells: Record<string, string> = {
      description: lineDescription(line, text),
      quantity: String(line.quantity),
      unitNet: text.money(line.unitNetCents),
      rate: text.rate(line.rateBasisPoints),
      net: text.money(line.netCents),
      vat: text.money(line.vatCents),
      gross: text.money(line.grossCents),
    };
    const sku = line.kind === 'item' && line.sku ? p(skuLabel(doc, line.sku)) : '';
    const nameHeight = pdf
      .font('Helvetica')
      .fontSize(9)
      .heightOfString(p(cells.description!), { width: DESCRIPTION_WIDTH });
    const skuHeight = sku
      ? pdf.font('Helvetica').fontSize(7.5).heightOfString(sku, { width: DESCRIPTION_WIDTH }) + 1
      : 0;
    const height = nameHeight + skuHeight;
    if (y + height > contentBottom) {
      pdf.addPage();
      y = MARGIN;
      header();
    }
    pdf.fillColor(INK).font('Helvetica').fontSize(9);
    for (const c of cols) pdf.text(p(cells[c.key]!), c.x, y, { width: c.w, align: c.align });
    if (sku)
      pdf
        .fillColor(MUTED)
        .fontSize(7.5)
        .text(sku, MARGIN, y + nameHeight + 1, { width: DESCRIPTION_WIDTH });
    y += Math.max(height, 11) + 6;
    pdf
      .moveTo(MARGIN, y - 3)
      .lineTo(right, y - 3)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
  }

  // Totals per rate, then the grand totals, the notes below them: on a page of their own when they do
  // not fit under the lines.
  const notesHeight =
    (doc.reverseCharge
      ? pdf
          .font('Helvetica-Bold')
          .fontSize(9.5)
          .heightOfString(p(text.t('reverseCharge')), { width }) + 8
      : 0) +
    (isCredit
      ? 0
      : pdf
          .font('Helvetica')
          .fontSize(9.5)
          .heightOfString(p(text.t('thanks')), { width }));
  // Space, title, column labels (two lines at most), a row per rate, the rule, three totals, space, notes.
  const totalsHeight = 14 + 12 + 24 + doc.rates.length * 14 + 14 + 48 + 12 + notesHeight;
  if (y + totalsHeight > contentBottom) {
    pdf.addPage();
    y = MARGIN;
  }
  y += 14;
  // The breakdown per rate, in the columns of the lines above.
  const labelX = col('unitNet').x;
  pdf
    .fillColor(MUTED)
    .font('Helvetica-Bold')
    .fontSize(8)
    .text(p(text.t('ratesTitle').toUpperCase()), labelX, y);
  y += 12;
  const rateKeys = ['rate', 'net', 'vat', 'gross'] as const;
  const rateLabelsHeight = labelsHeight([...rateKeys]);
  pdf.fillColor(MUTED).font('Helvetica-Bold').fontSize(8);
  for (const key of rateKeys) {
    const c = col(key);
    pdf.text(p(text.t(`col.${key}`)), c.x, y, { width: c.w, align: 'right' });
  }
  y += rateLabelsHeight + 4;
  for (const r of doc.rates) {
    pdf.fillColor(INK).font('Helvetica').fontSize(9);
    const cells = {
      rate: text.rate(r.rateBasisPoints),
      net: text.money(r.netCents),
      vat: text.money(r.vatCents),
      gross: text.money(r.grossCents),
    };
    for (const [key, value] of Object.entries(cells)) {
      const c = col(key);
      pdf.text(p(value), c.x, y, { width: c.w, align: 'right' });
    }
    y += 14;
  }
  y += 6;
  const valueX = right - 130;
  pdf.moveTo(labelX, y).lineTo(right, y).lineWidth(0.8).strokeColor(INK).stroke();
  y += 8;
  const totals: [string, number, boolean][] = [
    [text.t('totalNet'), doc.totals.netCents, false],
    [text.t('totalVat'), doc.totals.vatCents, false],
    [isCredit ? text.t('creditTotal') : text.t('totalGross'), doc.totals.grossCents, true],
  ];
  for (const [label, cents, strong] of totals) {
    pdf
      .fillColor(INK)
      .font(strong ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(strong ? 11 : 10);
    pdf.text(p(label), labelX, y, { width: 200 });
    pdf.text(p(text.money(cents)), valueX, y, { width: 130, align: 'right' });
    y += strong ? 18 : 15;
  }

  // The reverse-charge note, and thanks.
  y += 12;
  if (doc.reverseCharge) {
    pdf
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(9.5)
      .text(p(text.t('reverseCharge')), MARGIN, y, { width });
    y = pdf.y + 8;
  }
  if (!isCredit)
    pdf
      .fillColor(INK)
      .font('Helvetica')
      .fontSize(9.5)
      .text(p(text.t('thanks')), MARGIN, y, { width });

  // Footer on every page: seller's registration and bank, page numbers.
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // The footer ends right at the bottom margin: with the margin in force, pdfkit can take its last line
    // for an overflow (a rounding) and start a new page for it.
    pdf.page.margins.bottom = 0;
    pdf
      .moveTo(MARGIN, footerTop - 6)
      .lineTo(right, footerTop - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    pdf.fillColor(MUTED).font('Helvetica').fontSize(FOOTER_SIZE);
    if (footerText) pdf.text(footerText, MARGIN, footerTop, { width: footerWidth });
    pdf.text(p(text.t('page', { page: i + 1, pages: range.count })), right - 90, footerTop, {
      width: 90,
      align: 'right',
      lineBreak: false,
    });
  }
  pdf.end();
  return done;
}
