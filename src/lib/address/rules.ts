/**
 * The address form per country, as WooCommerce's checkout has it (its default address fields with each
 * country's locale laid over them): whether the state and the postcode are asked for and required, and
 * what they and the town are called. One table for the checkout and account forms (src/islands), the
 * engine's checks (src/server/cart/address-validation.ts) and the address formatter (format.ts), so the form
 * never asks for more than the engine wants.
 *
 * A state is required only where the locale requires it and the shop has the country's list to choose
 * from (states.ts): a state typed as free text cannot be checked, so it is never a reason to refuse an
 * order. Labels are ids: the storefront translates them (checkout.field.stateLabel.*,
 * checkout.field.postcodeLabel.*, checkout.field.cityLabel.*), the engine says them in English.
 */

export type StateLabel =
  | 'stateCounty'
  | 'state'
  | 'province'
  | 'county'
  | 'prefecture'
  | 'canton'
  | 'region'
  | 'municipality'
  | 'district'
  | 'department'
  | 'parish'
  | 'stateZone'
  | 'municipalityDistrict';
export type PostcodeLabel = 'postcodeZip' | 'zipCode' | 'postcode' | 'postalCode' | 'eircode' | 'pin';
export type CityLabel = 'townCity' | 'suburb' | 'townDistrict' | 'townCityPostOffice' | 'municipality' | 'townVillage';

export type FieldRule<L extends string> = { label: L; required: boolean; hidden: boolean };

export type AddressRules = {
  state: FieldRule<StateLabel>;
  postcode: FieldRule<PostcodeLabel>;
  city: FieldRule<CityLabel>;
};

type Overlay = { [K in keyof AddressRules]?: Partial<AddressRules[K]> };

const DEFAULT: AddressRules = {
  state: { label: 'stateCounty', required: true, hidden: false },
  postcode: { label: 'postcodeZip', required: true, hidden: false },
  city: { label: 'townCity', required: true, hidden: false },
};

const HIDDEN = { required: false, hidden: true } as const;
const OPTIONAL = { required: false } as const;
const NO_STATE: Overlay = { state: HIDDEN };

/** WooCommerce's country locale (the state, postcode and town entries), by country. */
const LOCALE: Record<string, Overlay> = {
  AE: { postcode: HIDDEN, state: OPTIONAL },
  AF: NO_STATE,
  AO: { postcode: HIDDEN, state: { label: 'province' } },
  AT: NO_STATE,
  AU: { city: { label: 'suburb' }, postcode: { label: 'postcode' }, state: { label: 'state' } },
  AX: NO_STATE,
  BA: { state: { label: 'canton', ...HIDDEN } },
  BD: { postcode: OPTIONAL, state: { label: 'district' } },
  BE: NO_STATE,
  BH: { postcode: OPTIONAL, state: HIDDEN },
  BI: NO_STATE,
  BO: { postcode: HIDDEN },
  BR: { state: { label: 'state' } },
  BS: { postcode: HIDDEN },
  CA: { postcode: { label: 'postalCode' }, state: { label: 'province' } },
  CH: { state: { label: 'canton', required: false } },
  CL: { postcode: HIDDEN, state: { label: 'region' } },
  CN: { state: { label: 'province' } },
  CO: { postcode: OPTIONAL },
  CW: { postcode: HIDDEN, state: OPTIONAL },
  CZ: NO_STATE,
  DE: NO_STATE,
  DK: NO_STATE,
  EE: NO_STATE,
  ES: { state: { label: 'province' } },
  FI: NO_STATE,
  FR: NO_STATE,
  GB: { postcode: { label: 'postcode' }, state: { label: 'county', required: false } },
  GF: NO_STATE,
  GH: { postcode: OPTIONAL, state: { label: 'region' } },
  GP: NO_STATE,
  GR: { state: OPTIONAL },
  GT: { postcode: HIDDEN, state: { label: 'department' } },
  HK: { postcode: OPTIONAL, city: { label: 'townDistrict' }, state: { label: 'region' } },
  HU: { state: { label: 'county' } },
  ID: { state: { label: 'province' } },
  IE: { postcode: { label: 'eircode', required: false }, state: { label: 'county' } },
  IL: NO_STATE,
  IM: NO_STATE,
  IN: { postcode: { label: 'pin' }, state: { label: 'state' } },
  IS: NO_STATE,
  IT: { state: { label: 'province', required: true } },
  JM: {
    city: { label: 'townCityPostOffice' },
    postcode: { label: 'postalCode', required: false },
    state: { label: 'parish', required: true },
  },
  JP: { state: { label: 'prefecture' } },
  KR: NO_STATE,
  KW: NO_STATE,
  LB: NO_STATE,
  LI: { state: { label: 'municipality', required: false } },
  LK: NO_STATE,
  LU: NO_STATE,
  LV: { state: { label: 'municipality', required: false } },
  MD: { state: { label: 'municipalityDistrict' } },
  MQ: NO_STATE,
  MT: NO_STATE,
  MZ: { postcode: HIDDEN, state: { label: 'province' } },
  NG: { postcode: { label: 'postcode', ...HIDDEN }, state: { label: 'state' } },
  NL: NO_STATE,
  NO: NO_STATE,
  NP: { postcode: OPTIONAL, state: { label: 'stateZone' } },
  NZ: { postcode: { label: 'postcode' }, state: { label: 'region', required: false } },
  PL: NO_STATE,
  PR: { city: { label: 'municipality' }, state: HIDDEN },
  PT: NO_STATE,
  RE: NO_STATE,
  RO: { state: { label: 'county', required: true } },
  RS: { state: { label: 'district', required: false } },
  SE: NO_STATE,
  SG: { state: HIDDEN, city: OPTIONAL },
  SI: NO_STATE,
  SK: NO_STATE,
  SR: { postcode: HIDDEN },
  ST: { postcode: HIDDEN, state: { label: 'district' } },
  TR: { state: { label: 'province' } },
  UG: { postcode: HIDDEN, city: { label: 'townVillage' }, state: { label: 'district', required: true } },
  US: { postcode: { label: 'zipCode' }, state: { label: 'state' } },
  VN: { postcode: OPTIONAL, state: HIDDEN },
  WS: { postcode: HIDDEN },
  YT: NO_STATE,
  ZA: { state: { label: 'province' } },
  ZW: { postcode: HIDDEN },
};

/**
 * The rules of one country's address. `hasStates`: the shop has the country's list of states (the
 * engine's countryStates); without one the state is optional free text, whatever the locale says.
 * An unknown or empty country gets WooCommerce's defaults (with the state optional).
 */
export function addressRules(country: string, hasStates: boolean): AddressRules {
  const overlay = LOCALE[country.trim().toUpperCase()] ?? {};
  const state = { ...DEFAULT.state, ...overlay.state };
  return {
    state: { ...state, required: state.required && !state.hidden && hasStates },
    postcode: { ...DEFAULT.postcode, ...overlay.postcode },
    city: { ...DEFAULT.city, ...overlay.city },
  };
}

/** WooCommerce's English labels, for the engine's messages ("Billing State is a required field."). */
export const ENGLISH_LABELS: {
  state: Record<StateLabel, string>;
  postcode: Record<PostcodeLabel, string>;
  city: Record<CityLabel, string>;
} = {
  state: {
    stateCounty: 'State / County',
    state: 'State',
    province: 'Province',
    county: 'County',
    prefecture: 'Prefecture',
    canton: 'Canton',
    region: 'Region',
    municipality: 'Municipality',
    district: 'District',
    department: 'Department',
    parish: 'Parish',
    stateZone: 'State / Zone',
    municipalityDistrict: 'Municipality / District',
  },
  postcode: {
    postcodeZip: 'Postcode / ZIP',
    zipCode: 'ZIP Code',
    postcode: 'Postcode',
    postalCode: 'Postal code',
    eircode: 'Eircode',
    pin: 'PIN',
  },
  city: {
    townCity: 'Town / City',
    suburb: 'Suburb',
    townDistrict: 'Town / District',
    townCityPostOffice: 'Town / City / Post Office',
    municipality: 'Municipality',
    townVillage: 'Town / Village',
  },
};
