/**
 * The session's customer (the logged-in user, or the guest session with id "guest") and the external
 * login providers, both refreshed by session start (one getCart call). The checkout prefills its
 * address forms from `$customer`; the account area's login buttons read `$loginClients`.
 */
import { atom } from 'nanostores';
import { writeLocal } from './browser-storage';
import type { CustomerFragment as Customer, LoginClientFragment as LoginClient } from '../graphql/generated/operations';

export const $customer = atom<Customer | null>(null);

/**
 * Kept in this browser while the shopper's prices are not the catalog's (another destination's VAT):
 * catalog pages then start the session at once and re-price (src/islands/catalog/shopper-prices.ts)
 * rather than at the first interaction.
 */
export const OWN_PRICES_KEY = 'meshfront-own-prices';
export const $loginClients = atom<LoginClient[]>([]);

export function setCustomer(customer: Customer | null): void {
  $customer.set(customer);
  if (customer) writeLocal(OWN_PRICES_KEY, customer.catalogPricesApply === false ? '1' : null);
}

export function setLoginClients(clients: readonly (LoginClient | null)[] | null | undefined): void {
  $loginClients.set((clients ?? []).filter((c): c is LoginClient => c !== null && c.isEnabled !== false));
}
