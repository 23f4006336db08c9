// The seller's country on invoices and what a printed invoice shows in full: the seller's address comes
// from the settings without its country, which each document prints in its own language (a last address
// line naming it, "…|Germany", is left out so a German invoice does not say "Germany"); the bank details
// in the footer are never cut; the SKU stands under the product's name; long column labels do not run
// into the amounts below them. Read back with poppler's pdftotext, as a reader of the PDF sees it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderInvoicePdf } from '../../src/server/invoices/pdf.ts';
import { InvoiceSettingsError, readInvoiceSettings } from '../../src/server/invoices/settings.ts';
import type { DocumentLine, InvoiceDocument } from '../../src/server/invoices/shape.ts';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-pdf-'));
afterAll(() => fs.rmSync(TMP, { recursive: true, force: true }));

const IBAN = 'IBAN DE12 4306 0967 0000 0000 00 · BIC GENODEM1GLS';
const SELLER_ENV = {
  INVOICE_SELLER_NAME: 'Meshfront GmbH',
  INVOICE_SELLER_ADDRESS: 'Funkweg 7|10115 Berlin|Germany',
  INVOICE_SELLER_VAT_ID: 'DE811907980',
  INVOICE_SELLER_REGISTRATION: 'Amtsgericht Berlin-Charlottenburg HRB 123456 · Geschäftsführerin: Ada Lovelace',
  INVOICE_SELLER_BANK: `GLS Gemeinschaftsbank eG, Bochum · ${IBAN}`,
};

/** Lines separated by one space each, spaces made plain. */
function pdfText(pdf: Buffer): string {
  const file = path.join(TMP, `${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/[ \t]+/g, ' ');
}

/** Words printed over one another (their boxes intersect by more than a hair), per poppler's word boxes. */
function overlappingWords(pdf: Buffer): string[] {
  const file = path.join(TMP, `${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
  const found: string[] = [];
  for (const page of html.split('<page ').slice(1)) {
    const words = [...page.matchAll(/xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</g)].map(
      (m) => ({ x0: Number(m[1]), y0: Number(m[2]), x1: Number(m[3]), y1: Number(m[4]), word: m[5]! }),
    );
    const HAIR = 0.5;
    words.forEach((a, i) => {
      for (const b of words.slice(i + 1))
        if (a.x0 < b.x1 - HAIR && b.x0 < a.x1 - HAIR && a.y0 < b.y1 - HAIR && b.y0 < a.y1 - HAIR)
          found.push(`"${a.word}" / "${b.word}"`);
    });
  }
  return found;
}

const mug: DocumentLine = {
  kind: 'item',
  description: 'Meshfront Emaille-Campingbecher',
  sku: 'MF-SWAG-MUG',
  quantity: 1,
  unitNetCents: 1176,
  rateBasisPoints: 1900,
  netCents: 1176,
  vatCents: 224,
  grossCents: 1400,
};
const shipping: DocumentLine = {
  kind: 'shipping',
  description: 'Versandkostenpauschale',
  sku: '',
  quantity: 1,
  unitNetCents: 412,
  rateBasisPoints: 1900,
  netCents: 412,
  vatCents: 78,
  grossCents: 490,
};

function invoice(locale: string, extra: Partial<InvoiceDocument> = {}): InvoiceDocument {
  return {
    version: 1,
    kind: 'invoice',
    number: '2026-000007',
    issueDate: '2026-11-29',
    supplyDate: '2026-11-29',
    locale,
    currency: 'EUR',
    seller: readInvoiceSettings(SELLER_ENV, 'shop@meshfront.example', 'DE').seller,
    buyer: {
      name: 'Grete Müller',
      company: '',
      addressLines: ['Hauptstraße 1', '10115 Berlin'],
      country: 'DE',
      vatId: null,
      email: 'grete@example.com',
    },
    order: { id: 1034, date: '2026-11-29', paymentMethodTitle: 'Nachnahme', paymentMethod: 'cod' },
    lines: [mug, shipping],
    rates: [{ rateBasisPoints: 1900, netCents: 1588, vatCents: 302, grossCents: 1890 }],
    totals: { netCents: 1588, vatCents: 302, grossCents: 1890 },
    reverseCharge: false,
    corrects: null,
    reason: '',
    ...extra,
  };
}

describe("the seller's country", () => {
  it("is the shop's country unless INVOICE_SELLER_COUNTRY says otherwise; a last line naming it is left out", () => {
    expect(readInvoiceSettings(SELLER_ENV, '', 'DE').seller).toMatchObject({
      addressLines: ['Funkweg 7', '10115 Berlin'],
      country: 'DE',
    });
    // Named in another of the shop's languages, or by its code: left out too.
    for (const last of ['Deutschland', 'germany', 'Allemagne', 'DE'])
      expect(
        readInvoiceSettings({ INVOICE_SELLER_ADDRESS: `Funkweg 7|10115 Berlin|${last}` }, '', 'DE').seller.addressLines,
      ).toEqual(['Funkweg 7', '10115 Berlin']);
    // Another country's name is the address's business, and stays.
    expect(
      readInvoiceSettings({ INVOICE_SELLER_ADDRESS: 'Rue de Rivoli 1|75001 Paris|France' }, '', 'DE').seller,
    ).toMatchObject({ addressLines: ['Rue de Rivoli 1', '75001 Paris', 'France'], country: 'DE' });
    expect(
      readInvoiceSettings(
        { INVOICE_SELLER_ADDRESS: 'Wiedner Gürtel 9|1100 Wien', INVOICE_SELLER_COUNTRY: 'AT' },
        '',
        'DE',
      ).seller.country,
    ).toBe('AT');
    expect(() => readInvoiceSettings({ INVOICE_SELLER_COUNTRY: 'Germany' }, '', 'DE')).toThrow(InvoiceSettingsError);
    expect(() => readInvoiceSettings({ INVOICE_SELLER_COUNTRY: 'Germany' }, '', 'DE')).toThrow(
      /INVOICE_SELLER_COUNTRY: a two-letter country code/,
    );
  });

  it('is printed in the language of the document, in the seller block and the sender line', async () => {
    const german = pdfText(await renderInvoicePdf(invoice('de_DE'), 'Meshfront'));
    expect(german).toContain('Meshfront GmbH · Funkweg 7, 10115 Berlin, Deutschland');
    expect(german).toMatch(/10115 Berlin\n\s*Deutschland\n/);
    expect(german).not.toContain('Germany');

    const french = pdfText(await renderInvoicePdf(invoice('fr_FR'), 'Meshfront'));
    expect(french).toContain('Meshfront GmbH · Funkweg 7, 10115 Berlin, Allemagne');
    expect(french).not.toContain('Germany');
  });

  it('a document issued before the country was kept prints its address lines as they were', async () => {
    const doc = invoice('de_DE');
    const { country: _country, ...seller } = doc.seller;
    const text = pdfText(
      await renderInvoicePdf(
        { ...doc, seller: { ...seller, addressLines: ['Funkweg 7', '10115 Berlin', 'Germany'] } as typeof doc.seller },
        'Meshfront',
      ),
    );
    expect(text).toContain('Meshfront GmbH · Funkweg 7, 10115 Berlin, Germany');
    expect(text).not.toContain('Deutschland\n Rechnungsnummer');
  });
});

describe('the printed invoice', () => {
  it('shows the bank details in the footer to their end, the SKU under the name, every amount', async () => {
    const text = pdfText(await renderInvoicePdf(invoice('de_DE'), 'Meshfront'));
    expect(text).toContain(IBAN);
    expect(text).toContain('Geschäftsführerin: Ada Lovelace');
    expect(text).toMatch(
      /Meshfront Emaille-Campingbecher 1 11,76 € 19 % 11,76 € 2,24 € 14,00 €\n\s*Artikelnummer: MF-SWAG-MUG\n/,
    );
    expect(text).toMatch(/Gesamtbetrag 18,90 €/);
    expect(text).toContain('Seite 1 von 1');
  });

  it('a seller with nothing but a name (no address, registration or bank): one page, its footer and number on it', async () => {
    const seller = readInvoiceSettings({}, 'shop@meshfront.example', 'DE').seller;
    const pages = pdfText(await renderInvoicePdf(invoice('de_DE', { seller }), 'Meshfront'))
      .split('\f')
      .filter((page) => page.trim());
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatch(/\n\s*Meshfront Seite 1 von 1\s*$/);
    // No country without an address to close: the seller's name, then the e-mail.
    expect(pages[0]).toMatch(/Meshfront\n\s*shop@meshfront\.example\n/);
  });

  it('in every language no word is printed over another (labels of two lines, "Taux de TVA", keep clear of what follows)', async () => {
    const credit: DocumentLine = { ...mug, kind: 'credit', description: '2026-000007', sku: '' };
    for (const locale of ['fr_FR', 'de_DE', 'en_US', 'es_ES', 'it_IT', 'pt_BR']) {
      const pdf = await renderInvoicePdf(invoice(locale, { reverseCharge: true }), 'Meshfront');
      expect(overlappingWords(pdf), locale).toEqual([]);
      // A credit note's labels are longer ("Nummer der Rechnungskorrektur" takes two lines).
      const creditNote = invoice(locale, {
        kind: 'credit-note',
        number: 'CN-2026-000002',
        lines: [credit],
        rates: [{ rateBasisPoints: 1900, netCents: 1176, vatCents: 224, grossCents: 1400 }],
        totals: { netCents: 1176, vatCents: 224, grossCents: 1400 },
        corrects: { number: '2026-000007', issueDate: '2026-11-29' },
        reason: 'Becher kam beschädigt an',
      });
      expect(overlappingWords(await renderInvoicePdf(creditNote, 'Meshfront')), `${locale} credit note`).toEqual([]);
    }
  });

  it('many lines: the content breaks to further pages above the footer, each page numbered, totals once', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ ...mug, description: `Becher ${i + 1}` }));
    const text = pdfText(await renderInvoicePdf(invoice('de_DE', { lines: [...many, shipping] }), 'Meshfront'));
    const pages = text.split('\f').filter((p) => p.trim());
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, i) => {
      expect(page).toContain(`Seite ${i + 1} von ${pages.length}`);
      // The footer is the last thing on each page: nothing printed over or under it.
      expect(page.trim().split('\n').at(-1)).toContain(IBAN);
    });
    for (let i = 1; i <= 40; i++) expect(text).toContain(`Becher ${i} `);
    expect(text.match(/Gesamtbetrag/g)).toHaveLength(1);
  });
});
