/**
 * Checkout state shared by the checkout islands: the countries the shop sells to and each country's
 * states (loaded once from the engine), and the action that places the order.
 */
import { atom, map } from 'nanostores';
import { request } from '../graphql/client';
import type { OrderFragment as Order } from '../graphql/generated/operations';
import type { CountriesEnum } from '../graphql/generated/schema';
import type { CountryState } from '../graphql/shapes';
import type { CheckoutVariables } from '../islands/checkout/validation';
import { $engineCart, replaceCart } from './cart-state';
import { setCustomer } from './customer';
import { sessionReady, setLoginTokens, setSessionToken } from './session';
import { setViewer } from './viewer';

/** null until loaded. */
export const $allowedCountries = atom<string[] | null>(null);
/** States per country code; [] = the country has no states. */
export const $countryStates = map<Record<string, CountryState[]>>({});

let countriesLoading: Promise<string[]> | null = null;
const statesLoading = new Map<string, Promise<CountryState[]>>();

export function loadAllowedCountries(): Promise<string[]> {
  const known = $allowedCountries.get();
  if (known) return Promise.resolve(known);
  countriesLoading ??= request('getAllowedCountries')
    .then((result) => {
      const list: string[] = (result.allowedCountries ?? []).filter((c) => c !== null);
      $allowedCountries.set(list);
      return list;
    })
    .finally(() => {
      countriesLoading = null;
    });
  return countriesLoading;
}

export function loadStates(country: string): Promise<CountryState[]> {
  if (!country) return Promise.resolve([]);
  const known = $countryStates.get()[country];
  if (known) return Promise.resolve(known);
  let loading = statesLoading.get(country);
  if (!loading) {
    // The forms offer the countries of allowedCountries only; the engine refuses a code that is no CountriesEnum value.
    loading = request('getStates', { country: country as CountriesEnum })
      .then((result) => {
        const states = (result.countryStates ?? []).filter((s): s is CountryState => Boolean(s?.code));
        $countryStates.setKey(country, states);
        return states;
      })
      .finally(() => statesLoading.delete(country));
    statesLoading.set(country, loading);
  }
  return loading;
}

export class CheckoutFailedError extends Error {
  override name = 'CheckoutFailedError';
}

/**
 * Places the order. Resolves with the order when the engine answers result "success"; otherwise
 * rejects with the engine's message. The session cart is emptied by the engine on success; the stored
 * cart follows so the badge shows 0 at once.
 */
export async function placeOrder(variables: CheckoutVariables): Promise<Order> {
  await sessionReady();
  const { checkout } = await request('Checkout', variables);
  if (checkout?.result !== 'success' || !checkout.order) {
    throw new CheckoutFailedError(
      checkout?.result && checkout.result !== 'success' ? checkout.result : 'checkout.error.failed',
    );
  }
  const cart = $engineCart.get();
  if (cart) {
    replaceCart({
      ...cart,
      isEmpty: true,
      appliedCoupons: null,
      contents: { itemCount: 0, productCount: 0, nodes: [] },
    });
  }
  return checkout.order;
}

/**
 * A card payment that left the page for a bank's check (3-D Secure redirect) comes back to /checkout
 * with ?payment_intent=…; the form it was placing is kept here until then (this tab only).
 */
const PENDING_KEY = 'meshfront:pending-card-checkout';

export function rememberPendingCardCheckout(variables: CheckoutVariables): void {
  // A password is never written to storage: an order resumed after a bank's redirect is placed without
  // creating the account (the shopper can register afterwards with the same e-mail address).
  const { account: _account, ...kept } = variables;
  try {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(kept));
  } catch {
    // Without storage the redirect case cannot resume; the shopper is told to place the order again.
  }
}

export function takePendingCardCheckout(): CheckoutVariables | null {
  try {
    const raw = sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
    return raw ? (JSON.parse(raw) as CheckoutVariables) : null;
  } catch {
    return null;
  }
}

/**
 * After a checkout that created an account (the engine already gave the order and the session to the
 * new account), logs the shopper in with the same credentials, as WooNuxt does: the auth token, the
 * account's session token, the viewer and the customer are stored, so the order-received page and the
 * header show the shopper logged in. Resolves false when the login did not go through; the order is
 * placed either way and the shopper can log in later.
 *
 * The account area's login action (src/stores/account.ts) is the general one; this uses only the session
 * and viewer stores so the checkout does not load the account area's code.
 */
export async function logInAfterCheckout(username: string, password: string): Promise<boolean> {
  try {
    const { login } = await request('login', { username, password });
    if (!login?.authToken || !login.user) return false;
    const sessionToken = login.sessionToken || login.customer?.sessionToken;
    if (sessionToken) setSessionToken(sessionToken);
    // The refresh token too: the account's session (and cart) serves only a valid login, and the
    // short-lived auth token is kept fresh with it.
    setLoginTokens({
      authToken: login.authToken,
      refreshToken: login.refreshToken,
      refreshTokenExpiration: login.refreshTokenExpiration,
    });
    setViewer({
      id: login.user.id,
      databaseId: login.user.databaseId,
      username: login.user.username ?? username,
      email: login.user.email ?? login.customer?.email ?? undefined,
      firstName: login.user.firstName ?? login.customer?.firstName ?? null,
      lastName: login.user.lastName ?? login.customer?.lastName ?? null,
    });
    setCustomer(login.customer);
    return true;
  } catch {
    return false;
  }
}
