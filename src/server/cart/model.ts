/**
 * What the cart keeps in the session (the session service's `data`): the lines, the applied coupon
 * codes, the chosen shipping rates and the session customer's addresses (a guest's country/state for
 * shipping and tax). Stored as JSON under the keys `cart` and `customer`.
 */
import crypto from 'node:crypto';
import type { VatCheck } from '../tax/vat-check.ts';

export type StoredCartItem = {
  key: string;
  productId: number;
  variationId: number | null;
  quantity: number;
  /** attribute name → value as chosen (variable products) */
  variation: Record<string, string>;
  extraData: string | null;
};

export type StoredCart = {
  items: StoredCartItem[];
  coupons: string[];
  chosenShipping: string[];
  /**
   * The rate ids the (first) package offered when the cart was last saved: free shipping missing from
   * them has just become available (shipping/choice.ts). null in a session saved before they were kept.
   */
  offeredShipping: string[] | null;
};

export type Address = {
  firstName: string;
  lastName: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  email: string;
  phone: string;
  /**
   * A business's VAT ID, as checked (tax/vat-id.ts: "DE136695976"); billing addresses only. Absent on
   * addresses stored before the shop asked for it.
   */
  vatId?: string;
};

/** `vat`: the check of the billing address's VAT ID (tax/vat-check.ts); null when there is none. */
export type SessionCustomer = {
  billing: Address;
  shipping: Address;
  calculatedShipping: boolean;
  vat: VatCheck | null;
};

/** The fields a session address update copies as typed (the VAT ID is checked apart: cart/service.ts). */
export const ADDRESS_FIELDS = [
  'firstName',
  'lastName',
  'company',
  'address1',
  'address2',
  'city',
  'state',
  'postcode',
  'country',
  'email',
  'phone',
] as const;

export function emptyAddress(): Address {
  return {
    firstName: '',
    lastName: '',
    company: '',
    address1: '',
    address2: '',
    city: '',
    state: '',
    postcode: '',
    country: '',
    email: '',
    phone: '',
    vatId: '',
  };
}

export function readCart(data: Record<string, unknown>): StoredCart {
  const c = data.cart as Partial<StoredCart> | undefined;
  return {
    items: Array.isArray(c?.items) ? c.items : [],
    coupons: Array.isArray(c?.coupons) ? c.coupons : [],
    chosenShipping: Array.isArray(c?.chosenShipping) ? c.chosenShipping : [],
    offeredShipping: Array.isArray(c?.offeredShipping) ? c.offeredShipping : null,
  };
}

export function readCustomer(data: Record<string, unknown>): SessionCustomer {
  const c = data.customer as Partial<SessionCustomer> | undefined;
  return {
    billing: { ...emptyAddress(), ...(c?.billing ?? {}) },
    shipping: { ...emptyAddress(), ...(c?.shipping ?? {}) },
    calculatedShipping: c?.calculatedShipping ?? false,
    vat: isVatCheck(c?.vat) ? c.vat : null,
  };
}

function isVatCheck(value: unknown): value is VatCheck {
  const v = value as Partial<VatCheck> | null | undefined;
  return (
    typeof v?.vatId === 'string' &&
    typeof v.country === 'string' &&
    (v.status === 'valid' || v.status === 'unverified') &&
    typeof v.checkedAt === 'string'
  );
}

/** The customer's saved addresses (the account's), behind the session's. */
export type SavedAddresses = { billing: Address; shipping: Address };

/**
 * One address of the customer as shipping, tax and the checkout see it (WooCommerce's session customer):
 * the session's fields over the saved ones. Country and state go together: a session that names a
 * country names its state too (empty or not).
 */
function overlay(saved: Address | undefined, session: Address): Address {
  if (!saved) return { ...session };
  const out: Address = { ...saved };
  for (const f of Object.keys(session) as (keyof Address)[])
    if (f !== 'country' && f !== 'state' && session[f]) out[f] = session[f];
  // The VAT ID the session checked is the one its VAT check (SessionCustomer.vat) belongs to.
  if (session.vatId) out.vatId = session.vatId;
  if (session.country) {
    out.country = session.country;
    out.state = session.state;
  }
  return out;
}

/**
 * The customer the shop assumes (WooCommerce's customer defaults): the session's addresses, a logged-in
 * customer's saved addresses behind them, and where neither names a country the shop's base country for
 * billing and billing's country for shipping — so the cart's estimate and the checkout's form start from
 * the same country.
 */
export function assumedCustomer(
  session: SessionCustomer,
  saved: SavedAddresses | null,
  baseCountry: string,
): SessionCustomer {
  const billing = overlay(saved?.billing, session.billing);
  const shipping = overlay(saved?.shipping, session.shipping);
  if (!billing.country) billing.country = baseCountry;
  if (!shipping.country) {
    shipping.country = billing.country;
    shipping.state = billing.state;
  }
  return { ...session, billing, shipping };
}

/** WooCommerce's cart id: md5 of product, variation, attributes and extra data — same inputs, same line. */
export function cartItemKey(
  productId: number,
  variationId: number | null,
  variation: Record<string, string>,
  extraData: string | null,
): string {
  const attrs = Object.entries(variation)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return crypto
    .createHash('md5')
    .update(`${productId}_${variationId ?? 0}_${attrs}_${extraData ?? ''}`)
    .digest('hex');
}
