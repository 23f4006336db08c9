/**
 * A postal address as lines, the way the post of its country writes it (WooCommerce's address formats):
 * "10115 Berlin" in Germany, "Arlington, VA 22201" in the United States, town, county and postcode on
 * lines of their own in the United Kingdom. States print by name (states.ts), except where the post
 * wants the code (US and Canada). One formatter for the order pages, the order e-mail and the web admin.
 */
import { stateName } from './states.ts';

export type PostalAddress = {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  postcode?: string | null;
  country?: string | null;
};

const COMPANY_FIRST = '{company}\n{name}\n{address_1}\n{address_2}\n{postcode} {city}\n{country}';

/** WooCommerce's formats; the others use `default`. */
const FORMATS: Record<string, string> = {
  default: '{name}\n{company}\n{address_1}\n{address_2}\n{city}\n{state}\n{postcode}\n{country}',
  AT: COMPANY_FIRST,
  AU: '{name}\n{company}\n{address_1}\n{address_2}\n{city} {state} {postcode}\n{country}',
  BE: COMPANY_FIRST,
  CA: '{company}\n{name}\n{address_1}\n{address_2}\n{city} {state_code} {postcode}\n{country}',
  CH: COMPANY_FIRST,
  CL: '{company}\n{name}\n{address_1}\n{address_2}\n{state}\n{city}\n{country}',
  CN: '{country} {postcode}\n{state}, {city}, {address_2}, {address_1}\n{company}\n{name}',
  CZ: COMPANY_FIRST,
  DE: COMPANY_FIRST,
  DK: COMPANY_FIRST,
  EE: COMPANY_FIRST,
  ES: '{name}\n{company}\n{address_1}\n{address_2}\n{postcode} {city}\n{state}\n{country}',
  FI: COMPANY_FIRST,
  FR: '{company}\n{name}\n{address_1}\n{address_2}\n{postcode} {city_upper}\n{country}',
  HK: '{company}\n{first_name} {last_name_upper}\n{address_1}\n{address_2}\n{city_upper}\n{state_upper}\n{country}',
  HU: '{last_name} {first_name}\n{company}\n{city}\n{address_1}\n{address_2}\n{postcode}\n{country}',
  IN: '{company}\n{name}\n{address_1}\n{address_2}\n{city} {postcode}\n{state}, {country}',
  IS: COMPANY_FIRST,
  IT: '{company}\n{name}\n{address_1}\n{address_2}\n{postcode}\n{city}\n{state_upper}\n{country}',
  JM: '{name}\n{company}\n{address_1}\n{address_2}\n{city}\n{state}\n{postcode_upper}\n{country}',
  JP: '{postcode}\n{state} {city} {address_1}\n{address_2}\n{company}\n{last_name} {first_name}\n{country}',
  LI: COMPANY_FIRST,
  NL: COMPANY_FIRST,
  NO: COMPANY_FIRST,
  NZ: '{name}\n{company}\n{address_1}\n{address_2}\n{city} {postcode}\n{country}',
  PL: COMPANY_FIRST,
  PR: '{company}\n{name}\n{address_1} {address_2}\n{city}\n{country} {postcode}',
  PT: COMPANY_FIRST,
  RS: '{name}\n{company}\n{address_1}\n{address_2}\n{postcode} {city}\n{country}',
  SE: COMPANY_FIRST,
  SI: COMPANY_FIRST,
  SK: COMPANY_FIRST,
  TR: '{name}\n{company}\n{address_1}\n{address_2}\n{postcode} {city} {state}\n{country}',
  TW: '{company}\n{last_name} {first_name}\n{address_1}\n{address_2}\n{state}, {city} {postcode}\n{country}',
  UG: '{name}\n{company}\n{address_1}\n{address_2}\n{city}\n{state}, {country}',
  US: '{name}\n{company}\n{address_1}\n{address_2}\n{city}, {state_code} {postcode}\n{country}',
  VN: '{name}\n{company}\n{address_1}\n{city}\n{country}',
};

export type FormatOptions = {
  /** The country's name for its code (in the reader's language); the code itself when absent. */
  countryName?: (code: string) => string;
};

/** The address as display lines, empty ones left out; [] for no address. */
export function formatAddress(address: PostalAddress | null | undefined, options: FormatOptions = {}): string[] {
  if (!address) return [];
  const v = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();
  const country = v(address.country).toUpperCase();
  const state = v(address.state);
  const fullState = country && state ? stateName(country, state) : state;
  let countryName = country;
  try {
    if (country && options.countryName) countryName = options.countryName(country);
  } catch {
    // Intl.DisplayNames refuses a malformed code: the code as stored is still the best line.
  }
  const firstName = v(address.firstName);
  const lastName = v(address.lastName);
  const values: Record<string, string> = {
    first_name: firstName,
    last_name: lastName,
    name: `${firstName} ${lastName}`,
    company: v(address.company),
    address_1: v(address.address1),
    address_2: v(address.address2),
    city: v(address.city),
    state: fullState,
    state_code: state.toUpperCase(),
    postcode: v(address.postcode),
    country: countryName,
  };
  const format = FORMATS[country] ?? FORMATS.default!;
  const filled = format.replace(/\{(\w+?)(_upper)?\}/g, (_, key: string, upper?: string) => {
    const value = values[key] ?? '';
    return upper ? value.toUpperCase() : value;
  });
  return filled
    .split('\n')
    .map((line) =>
      line
        .replace(/ {2,}/g, ' ')
        .replace(/(?:,\s*)+,/g, ',')
        .replace(/^[\s,]+|[\s,]+$/g, ''),
    )
    .filter((line) => line !== '');
}
