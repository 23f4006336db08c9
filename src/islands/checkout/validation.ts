/**
 * The checkout form's rules, as pure functions: what is required, what an e-mail looks like, what the
 * country asks of an address (state, postcode, town: src/lib/address/rules.ts, the rules the engine
 * checks too), and how the form becomes the Checkout mutation's variables. The engine validates again;
 * these rules only spare the shopper a round trip. tests/unit/checkout-validation.test.ts covers them.
 */
import type { AddressFragment as Address, CartFragment as Cart } from '../../graphql/generated/operations';
import type { CountriesEnum, CustomerAddressInput as AddressInput } from '../../graphql/generated/schema';
import type { CountryState, OperationVariables } from '../../graphql/shapes';
import { addressRules, type AddressRules as CountryRules } from '../../lib/address/rules';
import { asksForVatId, vatIdProblem } from '../../lib/vat-id';

export type AddressField = keyof Address;

/** The form keeps every address field as text (the engine's nulls become ''). */
export type AddressForm = Record<AddressField, string>;

export interface CheckoutForm {
  billing: AddressForm;
  shipToDifferentAddress: boolean;
  shipping: AddressForm;
  customerNote: string;
  createAccount: boolean;
  username: string;
  password: string;
  paymentMethod: string;
}

/** Error message keys (strings cart.*, checkout.*) by field path: 'billing.email', 'account.password'… */
export type CheckoutErrors = Partial<Record<string, string>>;

export function emptyAddress(country = ''): AddressForm {
  return {
    firstName: '',
    lastName: '',
    company: '',
    address1: '',
    address2: '',
    city: '',
    state: '',
    postcode: '',
    country,
    email: '',
    phone: '',
    vatId: '',
  };
}

/** Prefills a form from a stored address (the customer's, from session start). */
export function addressFromCustomer(address: Partial<Address> | null | undefined, fallbackCountry = ''): AddressForm {
  const form = emptyAddress(fallbackCountry);
  if (!address) return form;
  for (const key of Object.keys(form) as (keyof AddressForm)[]) {
    const value = address[key];
    if (typeof value === 'string' && value) form[key] = value;
  }
  return form;
}

/**
 * A practical e-mail check: one @, no spaces, a dot in the domain, no empty labels. (The engine has the
 * final word.)
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/**
 * What an address's country asks for. `statesOf` gives the country's states as loaded from the engine:
 * until they are, the state is not required (the engine decides).
 */
export function countryRules(
  country: string,
  statesOf: (country: string) => readonly CountryState[] | undefined,
): CountryRules {
  return addressRules(country, (statesOf(country)?.length ?? 0) > 0);
}

export interface AddressRules {
  kind: 'billing' | 'shipping';
  /** Only names and contact are asked (billing of an all-virtual cart when the shop hides the address). */
  contactOnly?: boolean;
  /** The states of a country as loaded from the engine; undefined while unknown (then not required). */
  statesOf: (country: string) => readonly CountryState[] | undefined;
}

const REQUIRED: readonly (keyof AddressForm)[] = ['firstName', 'lastName', 'address1', 'country'];
const CONTACT_REQUIRED: readonly (keyof AddressForm)[] = ['firstName', 'lastName'];
/** The billing fields shown and sent when the address is hidden. */
export const CONTACT_FIELDS: readonly (keyof AddressForm)[] = ['firstName', 'lastName', 'phone', 'email'];

export function validateAddress(address: AddressForm, rules: AddressRules): CheckoutErrors {
  const errors: CheckoutErrors = {};
  const prefix = rules.kind;
  const required = (field: keyof AddressForm) => {
    if (!address[field].trim()) errors[`${prefix}.${field}`] = 'checkout.error.required';
  };
  for (const field of rules.contactOnly ? CONTACT_REQUIRED : REQUIRED) required(field);
  if (!rules.contactOnly) {
    const local = countryRules(address.country, rules.statesOf);
    if (local.city.required) required('city');
    if (local.postcode.required) required('postcode');
    const states = address.country ? rules.statesOf(address.country) : undefined;
    if (local.state.required) required('state');
    if (!local.state.hidden && address.state.trim() && states?.length && !states.some((s) => s.code === address.state))
      errors[`${prefix}.state`] = 'checkout.error.stateInvalid';
  }
  if (rules.kind === 'billing') {
    if (!address.email.trim()) errors['billing.email'] = 'checkout.error.required';
    else if (!isValidEmail(address.email)) errors['billing.email'] = 'checkout.error.email';
    // The VAT ID field shows for EU countries only: one left from another country is not sent.
    const vatProblem =
      rules.contactOnly || !asksForVatId(address.country) ? null : vatIdProblem(address.vatId, address.country);
    if (vatProblem) errors['billing.vatId'] = vatProblem;
  }
  return errors;
}

export interface CheckoutRules {
  statesOf: AddressRules['statesOf'];
  /** Gateway ids the engine offers. */
  gateways: readonly string[];
  /** A logged-in customer cannot create an account. */
  loggedIn: boolean;
  /** The billing address is hidden (setting on, every item virtual): names and e-mail only. */
  billingAddressHidden?: boolean;
}

/**
 * WooNuxt's hideBillingAddressForVirtualProducts: with the setting on and nothing to ship (every item
 * virtual, so the engine says the cart needs no shipping address) the checkout asks for names and
 * e-mail only. The engine applies the same rule (CHECKOUT_HIDE_BILLING_FOR_VIRTUAL).
 */
export function billingAddressHidden(
  setting: boolean,
  cart: Pick<Cart, 'needsShippingAddress'> | null | undefined,
): boolean {
  return setting && cart?.needsShippingAddress === false;
}

export const MIN_PASSWORD_LENGTH = 8;

export function validateCheckout(form: CheckoutForm, rules: CheckoutRules): CheckoutErrors {
  const errors: CheckoutErrors = {
    ...validateAddress(form.billing, {
      kind: 'billing',
      statesOf: rules.statesOf,
      contactOnly: rules.billingAddressHidden,
    }),
    ...(form.shipToDifferentAddress && !rules.billingAddressHidden
      ? validateAddress(form.shipping, { kind: 'shipping', statesOf: rules.statesOf })
      : {}),
  };
  if (form.createAccount && !rules.loggedIn) {
    // The username is optional: without one the engine makes one from the e-mail address.
    if (form.username.trim() && !/^[\w.@+-]{3,60}$/.test(form.username.trim()))
      errors['account.username'] = 'checkout.error.username';
    if (form.password.length < MIN_PASSWORD_LENGTH) errors['account.password'] = 'checkout.error.password';
  }
  if (!form.paymentMethod) errors.paymentMethod = 'checkout.error.paymentMethod';
  else if (!rules.gateways.includes(form.paymentMethod)) errors.paymentMethod = 'checkout.error.paymentMethod';
  return errors;
}

/** Field paths in the order the form shows them, to focus the first invalid one. */
export const FIELD_ORDER = [
  ...[
    'firstName',
    'lastName',
    'company',
    'country',
    'address1',
    'address2',
    'city',
    'state',
    'postcode',
    'phone',
    'email',
    'vatId',
  ].map((f) => `billing.${f}`),
  ...['firstName', 'lastName', 'company', 'country', 'address1', 'address2', 'city', 'state', 'postcode'].map(
    (f) => `shipping.${f}`,
  ),
  'account.username',
  'account.password',
  'paymentMethod',
];

export function firstInvalidField(errors: CheckoutErrors): string | null {
  return FIELD_ORDER.find((field) => errors[field]) ?? Object.keys(errors)[0] ?? null;
}

/** Fields the country does not ask for (a state in Germany): not sent, even if kept from earlier. */
function hiddenFields(country: string): (keyof AddressForm)[] {
  const local = addressRules(country, false);
  return [...(local.state.hidden ? ['state' as const] : []), ...(local.postcode.hidden ? ['postcode' as const] : [])];
}

function cleanAddress(address: AddressForm, withContact: boolean): AddressInput {
  const { country, ...fields } = address;
  const out: AddressInput = {};
  const hidden = hiddenFields(country);
  for (const [key, value] of Object.entries(fields) as [Exclude<keyof AddressForm, 'country'>, string][]) {
    // E-mail, phone and the VAT ID belong to the billing address only.
    if (!withContact && (key === 'email' || key === 'phone' || key === 'vatId')) continue;
    if (key === 'vatId' && !asksForVatId(country)) continue;
    if (hidden.includes(key)) continue;
    const trimmed = value.trim();
    if (trimmed) out[key] = trimmed;
  }
  // The form's country is one the shopper picked from the engine's allowedCountries; the engine checks it again.
  if (country.trim()) out.country = country.trim() as CountriesEnum;
  return out;
}

export type CheckoutVariables = OperationVariables<'Checkout'>;

/**
 * The Checkout mutation's variables. Without a separate shipping address the billing address is sent
 * as the shipping address too (WooCommerce copies it the same way). The chosen shipping rates come from
 * the cart. `payment` adds what a gateway needs (Stripe: the PaymentIntent id).
 */
export function buildCheckoutVariables(
  form: CheckoutForm,
  cart: Pick<Cart, 'chosenShippingMethods'> | null,
  payment: { transactionId?: string; metaData?: { key: string; value: string }[] } = {},
  options: { billingAddressHidden?: boolean } = {},
): CheckoutVariables {
  if (options.billingAddressHidden) {
    // Only what was asked: a country or street left in the form from earlier is not sent.
    const contact = Object.fromEntries(CONTACT_FIELDS.map((f) => [f, form.billing[f]])) as Partial<AddressForm>;
    const billing = cleanAddress({ ...emptyAddress(), ...contact }, true);
    const variables: CheckoutVariables = { paymentMethod: form.paymentMethod, billing, shipToDifferentAddress: false };
    return withExtras(variables, form, cart, payment);
  }
  const billing = cleanAddress(form.billing, true);
  const shipping = form.shipToDifferentAddress ? cleanAddress(form.shipping, false) : cleanAddress(form.billing, false);
  const variables: CheckoutVariables = {
    paymentMethod: form.paymentMethod,
    billing,
    shipping,
    shipToDifferentAddress: form.shipToDifferentAddress,
  };
  return withExtras(variables, form, cart, payment);
}

/** Shipping choice, note, account and payment details: the same whichever address fields were asked. */
function withExtras(
  variables: CheckoutVariables,
  form: CheckoutForm,
  cart: Pick<Cart, 'chosenShippingMethods'> | null,
  payment: { transactionId?: string; metaData?: { key: string; value: string }[] },
): CheckoutVariables {
  const methods = (cart?.chosenShippingMethods ?? []).filter((m): m is string => Boolean(m));
  if (methods.length) variables.shippingMethod = methods;
  if (form.customerNote.trim()) variables.customerNote = form.customerNote.trim();
  // An empty username asks the engine to make one from the e-mail address.
  if (form.createAccount) variables.account = { username: form.username.trim(), password: form.password };
  if (payment.transactionId) {
    variables.transactionId = payment.transactionId;
    // The engine verifies the payment itself; isPaid only says which path the browser took.
    variables.isPaid = true;
  }
  if (payment.metaData?.length) variables.metaData = payment.metaData;
  return variables;
}

/** Where the shop ships to for rate/tax purposes: the shipping address when it differs, else billing. */
export function destinationOf(form: CheckoutForm): { country: string; state: string } {
  const source = form.shipToDifferentAddress ? form.shipping : form.billing;
  return { country: source.country, state: hiddenFields(source.country).includes('state') ? '' : source.state };
}

/** The order-received page for an order: /checkout/order-received/{id}?key={orderKey}. */
export function orderReceivedPath(
  localePrefix: string,
  order: { databaseId: number | null; orderKey: string | null },
): string {
  const key = order.orderKey ? `?key=${encodeURIComponent(order.orderKey)}` : '';
  return `${localePrefix}/checkout/order-received/${order.databaseId ?? ''}${key}`;
}
