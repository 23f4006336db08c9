// The per-country address rules (src/lib/address/rules.ts) the checkout form, the account form and the
// engine's checks share: which fields a country asks for and requires, and what they are called.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addressRules, ENGLISH_LABELS } from '../../src/lib/address/rules.ts';
import { stateName, statesOf } from '../../src/lib/address/states.ts';

const has = (country: string) => statesOf(country).length > 0;
const rules = (country: string) => addressRules(country, has(country));

describe('address rules per country (WooCommerce country locale)', () => {
  it('requires a state where WooCommerce does and the shop has the list to choose from', () => {
    for (const country of ['US', 'CA', 'AU', 'BR', 'IN', 'MX', 'JP', 'IT', 'ES'])
      expect(rules(country).state, country).toMatchObject({ required: true, hidden: false });
  });

  it('asks no state in Germany, Austria, France … and an optional one in the UK and Switzerland', () => {
    for (const country of ['DE', 'AT', 'FR', 'NL', 'BE', 'PL', 'PT', 'SE', 'DK', 'FI', 'CZ', 'KR', 'SG'])
      expect(rules(country).state, country).toMatchObject({ required: false, hidden: true });
    for (const country of ['GB', 'CH', 'NZ', 'GR'])
      expect(rules(country).state, country).toMatchObject({ required: false, hidden: false });
    // Germany's states exist (orders from elsewhere may carry one), the form still does not ask.
    expect(has('DE')).toBe(true);
  });

  it('never requires a state it cannot offer as a list (free text is optional)', () => {
    // WooCommerce's locale requires Ireland's and Hungary's county; the shop has no list for them.
    expect(addressRules('IE', false).state).toMatchObject({ label: 'county', required: false, hidden: false });
    expect(addressRules('HU', false).state.required).toBe(false);
    expect(addressRules('IE', true).state.required).toBe(true);
    expect(addressRules('', false).state.required).toBe(false);
  });

  it('names the state, postcode and town as the country does', () => {
    expect(rules('US')).toMatchObject({ state: { label: 'state' }, postcode: { label: 'zipCode' } });
    expect(rules('CA')).toMatchObject({ state: { label: 'province' }, postcode: { label: 'postalCode' } });
    expect(rules('GB')).toMatchObject({ state: { label: 'county' }, postcode: { label: 'postcode' } });
    expect(rules('IT').state.label).toBe('province');
    expect(rules('ES').state.label).toBe('province');
    expect(rules('BR').state.label).toBe('state');
    expect(rules('AU')).toMatchObject({ state: { label: 'state' }, city: { label: 'suburb' } });
    expect(rules('JP').state.label).toBe('prefecture');
    expect(rules('IE')).toMatchObject({ state: { label: 'county' }, postcode: { label: 'eircode', required: false } });
    expect(rules('IN').postcode.label).toBe('pin');
    expect(rules('DE')).toMatchObject({
      postcode: { label: 'postcodeZip', required: true },
      city: { label: 'townCity', required: true },
    });
    expect(rules('de').state.hidden).toBe(true);
  });

  it('does not ask for a postcode where WooCommerce does not', () => {
    expect(rules('AE').postcode).toMatchObject({ required: false, hidden: true });
    expect(rules('HK').postcode).toMatchObject({ required: false, hidden: false });
    expect(rules('US').postcode.required).toBe(true);
  });

  it('has an English label for the engine and a translation in every locale for each label', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const prefixes = { state: 'stateLabel', postcode: 'postcodeLabel', city: 'cityLabel' } as const;
    for (const code of ['en_US', 'de_DE', 'es_ES', 'fr_FR', 'it_IT', 'pt_BR']) {
      const strings = JSON.parse(fs.readFileSync(path.join(root, 'locales', `${code}.json`), 'utf8'));
      for (const [field, labels] of Object.entries(ENGLISH_LABELS))
        for (const [id, english] of Object.entries(labels)) {
          const key = `checkout.field.${prefixes[field as keyof typeof prefixes]}.${id}`;
          expect(strings[key], `${code} ${key}`).toBeTruthy();
          if (code === 'en_US') expect(strings[key]).toBe(english);
        }
    }
  });
});

describe('states', () => {
  it('names a state by its code, any case, and keeps what it does not know', () => {
    expect(stateName('US', 'VA')).toBe('Virginia');
    expect(stateName('DE', 'de-be')).toBe('Berlin');
    expect(stateName('FR', 'Bretagne')).toBe('Bretagne');
    expect(statesOf('XX')).toEqual([]);
  });
});
