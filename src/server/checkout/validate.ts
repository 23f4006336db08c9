/**
 * Checkout's address checks (before anything is reserved), done properly: required fields, e-mail,
 * country allowed, state valid for the country. Every problem is collected; the mutation reports them
 * all, joined by spaces, as WooCommerce does with its notices.
 */
import { statesOf } from '../geo/countries.ts';
import { emptyAddress, type Address } from '../cart/model.ts';

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

/**
 * Problems with one address. `required` lists the fields that must be filled; state is required when
 * the country has a state list; a given state must be one of the list (codes or names accepted, the
 * code is kept).
 */
/** Countries where WooCommerce's address locale makes the state a required field (elsewhere it is optional). */
const STATE_REQUIRED = new Set([
  'US',
  'CA',
  'AU',
  'BR',
  'IN',
  'MX',
  'JP',
  'IT',
  'ES',
  'AR',
  'CN',
  'ID',
  'MY',
  'NG',
  'TH',
  'TR',
  'ZA',
]);

export function addressProblems(
  prefix: 'Billing' | 'Shipping',
  a: Address,
  required: (keyof Address)[],
  allowedCountries: string[],
): string[] {
  const problems: string[] = [];
  for (const f of required) if (!a[f]) problems.push(`${prefix} ${LABELS[f]} is a required field.`);
  if (a.email && !isEmail(a.email)) problems.push(`${prefix} ${LABELS.email} is not a valid email address.`);
  if (a.country) {
    if (!allowedCountries.includes(a.country)) problems.push(`'${a.country}' is not a valid country code.`);
    else {
      const states = statesOf(a.country);
      if (states.length) {
        if (!a.state) {
          if (required.includes('country') && STATE_REQUIRED.has(a.country))
            problems.push(`${prefix} ${LABELS.state} is a required field.`);
        } else {
          const match = states.find(
            (s) => s.code.toUpperCase() === a.state.toUpperCase() || s.name.toLowerCase() === a.state.toLowerCase(),
          );
          if (!match)
            problems.push(
              `${prefix} ${LABELS.state} is not valid. Please enter one of the following: ${states.map((s) => s.name).join(', ')}`,
            );
          else a.state = match.code;
        }
      }
    }
  }
  if (a.phone && !/^[+0-9 ()./-]{4,30}$/.test(a.phone))
    problems.push(`${prefix} ${LABELS.phone} is not a valid phone number.`);
  return problems;
}
