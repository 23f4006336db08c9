/**
 * The session's customer (the logged-in user, or the guest session with id "guest") and the external
 * login providers, both refreshed by session start (one getCart call). The checkout prefills its
 * address forms from `$customer`; the account area's login buttons read `$loginClients`.
 */
import { atom } from 'nanostores';
import type { CustomerFragment as Customer, LoginClientFragment as LoginClient } from '../graphql/generated/operations';

export const $customer = atom<Customer | null>(null);
export const $loginClients = atom<LoginClient[]>([]);

export function setCustomer(customer: Customer | null): void {
  $customer.set(customer);
}

export function setLoginClients(clients: readonly (LoginClient | null)[] | null | undefined): void {
  $loginClients.set((clients ?? []).filter((c): c is LoginClient => c !== null && c.isEnabled !== false));
}
