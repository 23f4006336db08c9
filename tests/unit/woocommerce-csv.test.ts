import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  joinList,
  splitList,
  escapeFormula,
  translationHeader,
  unescapeFormula,
} from '../../src/server/catalog/woocommerce-csv/columns.ts';
import { mapRecords } from '../../src/server/catalog/woocommerce-csv/map-import.ts';
import { CsvSyntaxError, parseCsv } from '../../src/server/catalog/woocommerce-csv/parse.ts';
import { csvField, writeCsv } from '../../src/server/catalog/woocommerce-csv/write.ts';

const fields = (text: string) => parseCsv(text).map((r) => r.fields);

describe('CSV parser', () => {
  it('reads a WooCommerce export: byte-order mark, quoted header cells, CRLF line ends', () => {
    const text = '\uFEFFID,Type,SKU,"Is featured?"\r\n12,simple,FX-1,1\r\n';
    expect(fields(text)).toEqual([
      ['ID', 'Type', 'SKU', 'Is featured?'],
      ['12', 'simple', 'FX-1', '1'],
    ]);
  });

  it('keeps commas, doubled quotes and line breaks inside quoted fields', () => {
    const text = 'Name,Description\n"Gateway, outdoor","<p>The ""Bravo""\r\nline two</p>\nline three"\n';
    expect(fields(text)).toEqual([
      ['Name', 'Description'],
      ['Gateway, outdoor', '<p>The "Bravo"\r\nline two</p>\nline three'],
    ]);
  });

  it('numbers each record by the line it starts on, counting line breaks inside quotes', () => {
    const records = parseCsv('a,b\n"x\ny",1\nz,2');
    expect(records.map((r) => r.line)).toEqual([1, 2, 4]);
  });

  it('keeps empty fields and quoted empty fields, skips blank lines', () => {
    expect(fields('a,,c\n\n"",x,\n')).toEqual([
      ['a', '', 'c'],
      ['', 'x', ''],
    ]);
  });

  it('refuses an unterminated quote, naming the line where it opened', () => {
    expect(() => parseCsv('a,b\n1,"open\nmore')).toThrowError(CsvSyntaxError);
    try {
      parseCsv('a,b\n1,"open\nmore');
    } catch (e) {
      expect((e as CsvSyntaxError).line).toBe(2);
      expect((e as Error).message).toMatch(/line 2.*never closed/);
    }
  });

  it('refuses text after a closing quote and a quote inside an unquoted field', () => {
    expect(() => parseCsv('"a"b,c')).toThrow(/closing quote must be followed/);
    expect(() => parseCsv('ab"c,d')).toThrow(/quote inside an unquoted field/);
  });
});

describe('CSV writer', () => {
  it('quotes fields as PHP fputcsv does and doubles inner quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('two words')).toBe('"two words"');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('x\ny')).toBe('"x\ny"');
    expect(csvField('')).toBe('');
  });

  it('starts with a byte-order mark and ends every row with CRLF', () => {
    expect(
      writeCsv([
        ['a', 'b c'],
        ['1', '2'],
      ]),
    ).toBe('\uFEFFa,"b c"\r\n1,2\r\n');
  });

  it('reads back exactly what it wrote, for any text', () => {
    const cell = fc.string({
      unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\n', '\r', '\r\n', 'é', '€', '\t', '\uFEFF', ''),
    });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 6 }), (rows) => {
        // A row of one empty cell is a blank line in CSV, which no format can tell from nothing.
        expect(fields(writeCsv(rows))).toEqual(rows);
      }),
      { numRuns: 300 },
    );
  });
});

describe('WooCommerce cell lists', () => {
  it('splits categories and tags on commas, keeping escaped commas in names', () => {
    expect(splitList('Gateways > Indoor, Antennas, Cables\\, adapters')).toEqual([
      'Gateways > Indoor',
      'Antennas',
      'Cables, adapters',
    ]);
    expect(splitList('')).toEqual([]);
    expect(splitList(joinList(['a, b', 'c']))).toEqual(['a, b', 'c']);
  });

  it('guards text that a spreadsheet would run as a formula, and takes the guard off on import', () => {
    expect(escapeFormula('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(escapeFormula('-1')).toBe('-1');
    expect(escapeFormula('@home')).toBe("'@home");
    expect(unescapeFormula("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(unescapeFormula("'quoted")).toBe("'quoted");
  });
});

describe('WooCommerce rows', () => {
  const header =
    'ID,Type,SKU,Name,Published,Regular price,Sale price,Stock,In stock?,Categories,Parent,Attribute 1 name,Attribute 1 value(s),Attribute 1 visible,Attribute 1 global\n';

  it('reads a simple product and a variation with their prices in cents', () => {
    const { items, issues } = mapRecords(
      parseCsv(
        `${header}10,simple,S-1,Sticker,1,3.5,,12,1,Swag > Stickers,,,,,\n11,variation,V-1,,1,199,179,5,1,,id:12,Frequency band,EU868,,1\n`,
      ),
    );
    expect(issues).toEqual([]);
    expect(items[0]).toMatchObject({
      row: 2,
      id: 10,
      type: 'simple',
      sku: 'S-1',
      regularPriceCents: 350,
      categories: [['Swag', 'Stickers']],
      stock: { manage: true, quantity: 12 },
    });
    expect(items[1]).toMatchObject({
      row: 3,
      type: 'variation',
      parent: { id: 12 },
      regularPriceCents: 19900,
      salePriceCents: 17900,
      attributes: [{ name: 'Frequency band', values: ['EU868'], global: true }],
    });
  });

  it('reports every problem of a row with its line and column', () => {
    const { items, issues } = mapRecords(
      parseCsv(
        `${header},grouped,G-1,Bundle,1,,,,,,,,,,\n,simple,S-2,Cap,2,abc,,,,,,,,,\n,variation,V-2,,1,10,20,,,,,,,,\n`,
      ),
    );
    expect(items).toEqual([]);
    expect(issues).toEqual([
      {
        row: 2,
        column: 'Type',
        message: 'grouped products are not supported: import their products as simple products',
      },
      { row: 3, column: 'Published', message: '"2" is not 1 (published), 0 (private) or -1 (draft)' },
      { row: 3, column: 'Regular price', message: '"abc" is not a price such as 349 or 12.50' },
      { row: 4, column: 'Sale price', message: 'the sale price must be lower than the regular price' },
      { row: 4, column: 'Parent', message: 'a variation needs its parent product (id:123 or the parent SKU)' },
    ]);
  });

  it('refuses a file that is not a product export', () => {
    expect(mapRecords(parseCsv('email,title\na@b.c,A\n')).issues[0]).toMatchObject({
      row: 1,
      message: expect.stringMatching(/no Type or Name column/),
    });
  });
});

describe('translation columns', () => {
  it('recognises "Name (de_DE)"-style headers and nothing else', () => {
    expect(translationHeader('Name (de_DE)')).toMatchObject({ text: { field: 'name' }, locale: 'de_DE' });
    expect(translationHeader(' short description (fr-FR) ')).toMatchObject({
      text: { field: 'shortDescription', max: 5_000 },
      locale: 'fr-FR',
    });
    expect(translationHeader('Description(pt_BR)')).toMatchObject({ text: { field: 'description' }, locale: 'pt_BR' });
    expect(translationHeader('Weight (kg)')).toBeNull();
    expect(translationHeader('Name')).toBeNull();
    expect(translationHeader('Meta: Name (de_DE)')).toBeNull();
  });

  it("reads each column of a row, a locale written with a hyphen or in another case as the shop's", () => {
    const { items, issues } = mapRecords(
      parseCsv('Type,SKU,Name,Regular price,Name (de-de),Description (FR_fr)\nsimple,S-1,Cap,5, Mütze ,\n'),
    );
    expect(issues).toEqual([]);
    expect(items[0]!.translations).toEqual([
      { locale: 'de_DE', field: 'name', value: 'Mütze' },
      { locale: 'fr_FR', field: 'description', value: '' },
    ]);
    // Without translation columns nothing is said about translations: the stored ones stay.
    expect(mapRecords(parseCsv('Type,SKU,Name,Regular price\nsimple,S-1,Cap,5\n')).items[0]!.translations).toEqual([]);
  });

  it('refuses the whole file when a language has two columns for one text', () => {
    const { items, issues } = mapRecords(
      parseCsv('Type,SKU,Name,Regular price,Name (de_DE),Name (de-DE)\nsimple,S-1,Cap,5,Mütze,Kappe\n'),
    );
    expect(items).toEqual([]);
    expect(issues).toEqual([{ row: 1, column: 'Name (de-DE)', message: 'the de_DE name has two columns' }]);
  });
});
