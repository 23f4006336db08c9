/**
 * The address checks of the checkout (before anything is reserved) and of the account's saved addresses,
 * beside the cart's address model, done properly: required fields, e-mail,
 * country allowed, state valid for the country. Whether the town, postcode and state are required, and
 * what they are called in the messages, is the country's (src/lib/address/rules.ts, the same rules the
 * storefront's form follows, and the form's own names for those fields). Every problem is collected;
 * the mutation reports them all, joined by spaces, as WooCommerce does with its notices, in the
 * shopper's language.
 */
import { addressRules } from '../../lib/address/rules.ts';
import { statesOf } from '../../lib/address/states.ts';
import { emptyAddress, type Address } from './model.ts';
import { parseVatId, VatIdError } from '../tax/vat-id.ts';
import { literalText, text, type EngineText, type TextParam } from '../i18n/text.ts';

export type AddressInput = Partial<Record<keyof Address, string | null>> | null | undefined;

/** The fields' names in the messages (the town, postcode and state are named as their country names them). */
const LABELS: Record<Exclude<keyof Address, 'city' | 'state' | 'postcode'>, EngineText> = {
  firstName: text('field.firstName'),
  lastName: text('field.lastName'),
  company: text('field.company'),
  address1: text('field.address1'),
  address2: text('field.address2'),
  country: text('field.country'),
  email: text('field.email'),
  phone: text('field.phone'),
  vatId: text('field.vatId'),
};

export function toAddress(input: AddressInput): Address {
  const a = emptyAddress();
  if (!input) return a;
  for (const k of Object.keys(a) as (keyof Address)[]) {
    const v = input[k];
    if (typeof v === 'string') a[k] = v.trim().slice(0, 200);
  }
  a.country = a.country.toUpperCase();
  return a;
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

/** The fields whose requirement and label depend on the country. */
const BY_COUNTRY = ['city', 'postcode', 'state'] as const;

/**
 * Problems with one address. `required` lists the fields that must be filled; when it includes the
 * country (a whole address is asked for), the country's rules decide the town, postcode and state. A
 * given state must be one of the country's list (codes or names accepted, the code is kept).
 */
export function addressProblems(
  prefix: 'Billing' | 'Shipping',
  a: Address,
  required: (keyof Address)[],
  allowedCountries: string[],
): EngineText[] {
  const problems: EngineText[] = [];
  const states = a.country ? statesOf(a.country) : [];
  const rules = addressRules(a.country, states.length > 0);
  const section = text(prefix === 'Billing' ? 'validation.billing' : 'validation.shipping');
  const label = (f: keyof Address): TextParam =>
    f === 'state'
      ? { ui: `checkout.field.stateLabel.${rules.state.label}` }
      : f === 'postcode'
        ? { ui: `checkout.field.postcodeLabel.${rules.postcode.label}` }
        : f === 'city'
          ? { ui: `checkout.field.cityLabel.${rules.city.label}` }
          : LABELS[f];
  const problem = (key: string, f: keyof Address, more: Record<string, TextParam> = {}) =>
    text(key, { section, label: label(f), ...more });
  const wanted = new Set(required);
  if (wanted.has('country'))
    for (const f of BY_COUNTRY) {
      if (rules[f].required) wanted.add(f);
      else wanted.delete(f);
    }
  for (const f of wanted) if (f !== 'state' && !a[f]) problems.push(problem('validation.required', f));
  if (a.email && !isEmail(a.email)) problems.push(problem('validation.invalidEmail', 'email'));
  if (a.country) {
    if (!allowedCountries.includes(a.country)) problems.push(text('validation.invalidCountry', { country: a.country }));
    else if (!a.state) {
      if (wanted.has('state')) problems.push(problem('validation.required', 'state'));
    } else if (states.length) {
      const match = states.find(
        (s) => s.code.toUpperCase() === a.state.toUpperCase() || s.name.toLowerCase() === a.state.toLowerCase(),
      );
      if (!match)
        problems.push(problem('validation.invalidState', 'state', { states: states.map((s) => s.name).join(', ') }));
      else a.state = match.code;
    }
  }
  if (a.phone && !/^[+0-9 ()./-]{4,30}$/.test(a.phone)) problems.push(problem('validation.invalidPhone', 'phone'));
  // A VAT ID belongs to the billing address; its format and country are checked here, VIES at checkout.
  if (prefix === 'Shipping') a.vatId = '';
  else if (a.vatId) {
    try {
      a.vatId = parseVatId(a.vatId, a.country).vatId;
    } catch (err) {
      if (!(err instanceof VatIdError)) throw err;
      // The VAT ID's own refusal (tax/vat-id.ts) is English; its code lets the storefront say it translated.
      problems.push(literalText(err.message));
    }
  }
  return problems;
}
