import { describe, expect, it } from 'vitest';
import { afterLogoutPath, emailLinkKey, resetLinkParams } from '../../src/islands/account/navigation';
import { ACCOUNT_TABS, adjacentTab, DEFAULT_TAB, parseTab, tabHref } from '../../src/islands/account/tabs';

describe('account tabs in the URL', () => {
  it('reads the tab from the query string', () => {
    expect(parseTab('?tab=orders')).toBe('orders');
    expect(parseTab('tab=downloads')).toBe('downloads');
    expect(parseTab(new URLSearchParams('tab=wishlist&debug'))).toBe('wishlist');
    expect(parseTab('?tab=PASSWORD')).toBe('password');
  });

  it('knows WooCommerce-style names for the same tabs', () => {
    expect(parseTab('?tab=my-details')).toBe('details');
    expect(parseTab('?tab=personal-information')).toBe('details');
    expect(parseTab('?tab=change-password')).toBe('password');
  });

  it('falls back to the details tab for a missing or unknown tab', () => {
    for (const search of ['', '?', '?tab=', '?tab=admin', '?tab=__proto__', '?tab=toString', '?other=orders'])
      expect(parseTab(search)).toBe(DEFAULT_TAB);
  });

  it('builds a tab link that keeps the other parameters', () => {
    expect(tabHref('/my-account', '', 'orders')).toBe('/my-account?tab=orders');
    expect(tabHref('/de/my-account', '?tab=orders&debug=1', 'wishlist')).toBe('/de/my-account?tab=wishlist&debug=1');
  });

  it('round-trips every tab', () => {
    for (const tab of ACCOUNT_TABS)
      expect(parseTab(new URL(tabHref('/my-account', '', tab), 'http://x').search)).toBe(tab);
  });

  it('arrow keys wrap around the tab list', () => {
    expect(adjacentTab('details', 1)).toBe('password');
    expect(adjacentTab('wishlist', 1)).toBe('details');
    expect(adjacentTab('details', -1)).toBe('wishlist');
  });
});

describe('after logout', () => {
  it('stays on the account page (any locale), goes home from anywhere else', () => {
    expect(afterLogoutPath('/my-account', '')).toBeNull();
    expect(afterLogoutPath('/de/my-account', '/de')).toBeNull();
    expect(afterLogoutPath('/my-account/lost-password', '')).toBeNull();
    expect(afterLogoutPath('/checkout', '')).toBe('/');
    expect(afterLogoutPath('/fr/product/x', '/fr')).toBe('/fr/');
    expect(afterLogoutPath('/my-accounts', '')).toBe('/');
  });
});

describe('reset links', () => {
  it('reads key and login from the e-mail link', () => {
    expect(resetLinkParams('?key=Abc_123-x&login=ada')).toEqual({ key: 'Abc_123-x', login: 'ada' });
    expect(resetLinkParams('?key=k1&login=ada%40example.com')).toEqual({ key: 'k1', login: 'ada@example.com' });
  });

  it('no parameters: the request form', () => {
    expect(resetLinkParams('')).toBeNull();
    expect(resetLinkParams('?utm_source=mail')).toBeNull();
  });

  it('a mangled link is invalid at once', () => {
    for (const search of [
      '?key=&login=ada',
      '?key=abc',
      '?login=ada',
      '?key=a%20b&login=ada',
      `?key=${'k'.repeat(201)}&login=ada`,
      '?key=<script>&login=ada',
    ]) {
      expect(resetLinkParams(search)).toBe('invalid');
    }
  });
});

describe('the key of an e-mailed confirmation or account link', () => {
  it('reads a confirmation key and a signed account-link key', () => {
    expect(emailLinkKey('?key=Abc_123-x')).toBe('Abc_123-x');
    expect(emailLinkKey('?key=eyJ1IjoxfQ.abc_DEF-123&utm_source=mail')).toBe('eyJ1IjoxfQ.abc_DEF-123');
  });

  it('no key: null; a mangled one: invalid', () => {
    expect(emailLinkKey('')).toBeNull();
    expect(emailLinkKey('?utm_source=mail')).toBeNull();
    for (const search of [
      '?key=',
      '?key=a%20b',
      '?key=a.b.c',
      '?key=.abc',
      '?key=<script>',
      `?key=${'k'.repeat(2101)}`,
    ])
      expect(emailLinkKey(search)).toBe('invalid');
  });
});
