/**
 * The account area's tabs live in the URL (`/my-account?tab=orders`), so a tab can be linked to,
 * reloaded, and reached with back/forward. Pure helpers; tests/unit/account-tabs.test.ts covers them.
 */
export const ACCOUNT_TABS = ['details', 'password', 'orders', 'downloads', 'wishlist'] as const;
export type AccountTab = (typeof ACCOUNT_TABS)[number];
export const DEFAULT_TAB: AccountTab = 'details';

/** Other names the same tabs go by (WooCommerce's and WooNuxt's account URLs). */
const ALIASES: Readonly<Record<string, AccountTab>> = {
  'my-details': 'details',
  'personal-information': 'details',
  'edit-account': 'details',
  'change-password': 'password',
  'order-history': 'orders',
};

/** The tab a query string asks for; unknown or missing → the default tab. */
export function parseTab(search: string | URLSearchParams): AccountTab {
  const params =
    typeof search === 'string' ? new URLSearchParams(search.startsWith('?') ? search.slice(1) : search) : search;
  const raw = (params.get('tab') ?? '').trim().toLowerCase();
  if ((ACCOUNT_TABS as readonly string[]).includes(raw)) return raw as AccountTab;
  return Object.hasOwn(ALIASES, raw) ? ALIASES[raw]! : DEFAULT_TAB;
}

/**
 * The URL for a tab, keeping the page's other query parameters (e.g. `debug`). The default tab keeps
 * its parameter too, so "details" is as linkable as the others.
 */
export function tabHref(pathname: string, search: string, tab: AccountTab): string {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  params.set('tab', tab);
  return `${pathname}?${params.toString()}`;
}

/** The tab after/before `tab` (arrow keys in the tab list wrap around). */
export function adjacentTab(tab: AccountTab, step: 1 | -1): AccountTab {
  const index = ACCOUNT_TABS.indexOf(tab);
  return ACCOUNT_TABS[(index + step + ACCOUNT_TABS.length) % ACCOUNT_TABS.length]!;
}
