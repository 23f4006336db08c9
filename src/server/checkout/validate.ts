/**
 * Checkout's address checks (before anything is reserved), done properly: required fields, e-mail,
 * country allowed, state valid for the country. Whether the town, postcode and state are required, and
 * what they are called in the messages, is the country's (src/lib/address/rules.ts, the same rules the
 * storefront's form follows). Every problem is collected; the mutation reports them all, joined by
 * spaces, as WooCommerce does with its notices.
 */
import { addressRules, ENGLISH_LABELS } from '../../lib/address/rules.ts';
import { statesOf } from '../../lib/address/states.ts';
import { emptyAddress, type Address } from '../cart/model.ts';
import { parseVatId, VatIdError } from '../tax/vat-id.ts';

export type AddressInput = Partial<Record<keyof Address, string | null>> | null | undefined;

const LABELS: Record<keyof Address, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  company: 'Company name',
  address1: 'Street address',
  address2: 'Apartment, suite, unit, etc.',
  city: 'Town / City',
  state: 'State / County',
  postcode: 'Postcode / ZIP',
  country: 'Country / Region',
  email: 'Email address',
  phone: 'Phone',
  vatId: 'VAT ID',
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
): string[] {
  const problems: string[] = [];
  const states = a.country ? statesOf(a.country) : [];
  const rules = addressRules(a.country, states.length > 0);
  const label = (f: keyof Address) =>
    f === 'state'
      ? ENGLISH_LABELS.state[rules.state.label]
      : f === 'postcode'
        ? ENGLISH_LABELS.postcode[rules.postcode.label]
        : f === 'city'
          ? ENGLISH_LABELS.city[rules.city.label]
          : LABELS[f];
  const wanted = new Set(required);
  if (wanted.has('country'))
    for (const f of BY_COUNTRY) {
      if (rules[f].required) wanted.add(f);
      else wanted.delete(f);
    }
  for (const f of wanted) if (f !== 'state' && !a[f]) problems.push(`${prefix} ${label(f)} is a required field.`);
  if (a.email && !isEmail(a.email)) problems.push(`${prefix} ${LABELS.email} is not a valid email address.`);
  if (a.country) {
    if (!allowedCountries.includes(a.country)) problems.push(`'${a.country}' is not a valid country code.`);
    else if (!a.state) {
      if (wanted.has('state')) problems.push(`${prefix} ${label('state')} is a required field.`);
    } else if (states.length) {
      const match = states.find(
        (s) => s.code.toUpperCase() === a.state.toUpperCase() || s.name.toLowerCase() === a.state.toLowerCase(),
      );
      if (!match)
        problems.push(
          `${prefix} ${label('state')} is not valid. Please enter one of the following: ${states.map((s) => s.name).join(', ')}`,
        );
      else a.state = match.code;
    }
  }
  if (a.phone && !/^[+0-9 ()./-]{4,30}$/.test(a.phone))
    problems.push(`${prefix} ${LABELS.phone} is not a valid phone number.`);
  // A VAT ID belongs to the billing address; its format and country are checked here, VIES at checkout.
  if (prefix === 'Shipping') a.vatId = '';
  else if (a.vatId) {
    try {
      a.vatId = parseVatId(a.vatId, a.country).vatId;
    } catch (err) {
      if (!(err instanceof VatIdError)) throw err;
      problems.push(err.message);
    }
  }
  return problems;
}
