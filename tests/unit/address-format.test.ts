// The one address formatter of the order pages, the order e-mail and the web admin
// (src/lib/address/format.ts): the lines as the post of the address's country writes them.
import { describe, expect, it } from 'vitest';
import { formatAddress } from '../../src/lib/address/format.ts';

const english = new Intl.DisplayNames(['en'], { type: 'region' });
const countryName = (code: string) => english.of(code) ?? code;
const ada = { firstName: 'Ada', lastName: 'Lovelace' };

describe('formatAddress', () => {
  it('writes a US address as "Arlington, VA 22201"', () => {
    expect(
      formatAddress(
        { ...ada, address1: '1000 N Glebe Rd', city: 'Arlington', state: 'VA', postcode: '22201', country: 'US' },
        { countryName },
      ),
    ).toEqual(['Ada Lovelace', '1000 N Glebe Rd', 'Arlington, VA 22201', 'United States']);
  });

  it('writes a German address as "10115 Berlin", company first, no state code', () => {
    expect(
      formatAddress(
        {
          ...ada,
          company: 'Meshfront GmbH',
          address1: 'Invalidenstraße 1',
          city: 'Berlin',
          state: 'DE-BE',
          postcode: '10115',
          country: 'DE',
        },
        { countryName },
      ),
    ).toEqual(['Meshfront GmbH', 'Ada Lovelace', 'Invalidenstraße 1', '10115 Berlin', 'Germany']);
  });

  it('puts town, county and postcode of a UK address on lines of their own', () => {
    expect(
      formatAddress(
        {
          ...ada,
          address1: '10 Downing St',
          city: 'London',
          state: 'Greater London',
          postcode: 'SW1A 2AA',
          country: 'GB',
        },
        { countryName },
      ),
    ).toEqual(['Ada Lovelace', '10 Downing St', 'London', 'Greater London', 'SW1A 2AA', 'United Kingdom']);
  });

  it('prints state names where the post wants them, codes where it wants codes', () => {
    expect(
      formatAddress({
        ...ada,
        address1: 'Via del Corso 1',
        city: 'Roma',
        state: 'RM',
        postcode: '00186',
        country: 'IT',
      }),
    ).toEqual(['Ada Lovelace', 'Via del Corso 1', '00186', 'Roma', 'ROMA', 'IT']);
    expect(
      formatAddress({ ...ada, address1: '1 Main St', city: 'Sydney', state: 'NSW', postcode: '2000', country: 'AU' }),
    ).toEqual(['Ada Lovelace', '1 Main St', 'Sydney New South Wales 2000', 'AU']);
    expect(
      formatAddress({
        ...ada,
        address1: '1 Rue Sherbrooke',
        city: 'Montréal',
        state: 'QC',
        postcode: 'H2X 1X1',
        country: 'CA',
      }),
    ).toEqual(['Ada Lovelace', '1 Rue Sherbrooke', 'Montréal QC H2X 1X1', 'CA']);
    expect(formatAddress({ ...ada, city: 'Lyon', postcode: '69001', country: 'FR' })).toEqual([
      'Ada Lovelace',
      '69001 LYON',
      'FR',
    ]);
  });

  it('leaves out what is missing, without stray commas or spaces', () => {
    expect(formatAddress({ lastName: 'Lovelace', city: 'Arlington', state: 'VA', country: 'US' })).toEqual([
      'Lovelace',
      'Arlington, VA',
      'US',
    ]);
    expect(formatAddress({ city: 'Nowhere', country: 'ZZ' })).toEqual(['Nowhere', 'ZZ']);
    expect(formatAddress({ firstName: '  Ada ', address1: ' A  B ' })).toEqual(['Ada', 'A B']);
    expect(formatAddress(null)).toEqual([]);
  });

  it('keeps the code when the country name cannot be had', () => {
    expect(
      formatAddress(
        { city: 'Berlin', country: 'DE' },
        {
          countryName: () => {
            throw new RangeError('invalid');
          },
        },
      ),
    ).toEqual(['Berlin', 'DE']);
  });
});
