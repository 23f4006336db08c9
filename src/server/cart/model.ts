/**
 * What the cart keeps in the session (the session service's `data`): the lines, the applied coupon
 * codes, the chosen shipping rates and the session customer's addresses (a guest's country/state for
 * shipping and tax). Stored as JSON under the keys `cart` and `customer`.
 */
import crypto from 'node:crypto';

export type StoredCartItem = {
  key: string;
  productId: number;
  variationId: number | null;
  quantity: number;
  /** attribute name → value as chosen (variable products) */
  variation: Record<string, string>;
  extraData: string | null;
};

export type StoredCart = { items: StoredCartItem[]; coupons: string[]; chosenShipping: string[] };

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
};

export type SessionCustomer = { billing: Address; shipping: Address; calculatedShipping: boolean };

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
  };
}

export function readCart(data: Record<string, unknown>): StoredCart {
  const c = data.cart as Partial<StoredCart> | undefined;
  return {
    items: Array.isArray(c?.items) ? c.items : [],
    coupons: Array.isArray(c?.coupons) ? c.coupons : [],
    chosenShipping: Array.isArray(c?.chosenShipping) ? c.chosenShipping : [],
  };
}

export function readCustomer(data: Record<string, unknown>): SessionCustomer {
  const c = data.customer as Partial<SessionCustomer> | undefined;
  return {
    billing: { ...emptyAddress(), ...(c?.billing ?? {}) },
    shipping: { ...emptyAddress(), ...(c?.shipping ?? {}) },
    calculatedShipping: c?.calculatedShipping ?? false,
  };
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
