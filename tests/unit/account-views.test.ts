import { describe, expect, it } from 'vitest';
import { downloadState, formatDate, remainingLabel } from '../../src/islands/account/format';
import { providerForSlug, redirectSlugOf } from '../../src/islands/account/providers';
import { wishlistChanges, wishlistItemOf } from '../../src/stores/wishlist-sync';

const NOW = Date.UTC(2026, 10, 22, 12);

describe('downloads', () => {
  it('unlimited is shown as such; a count is never negative', () => {
    expect(remainingLabel(null)).toEqual({ key: 'account.downloads.unlimited' });
    expect(remainingLabel(3)).toEqual({ key: 'account.downloads.remainingCount', params: { count: 3 } });
    expect(remainingLabel(-1)).toEqual({ key: 'account.downloads.remainingCount', params: { count: 0 } });
  });

  it('a download is available until used up or expired (null = unlimited / never)', () => {
    expect(downloadState({ downloadsRemaining: null, accessExpires: null }, NOW)).toBe('available');
    expect(downloadState({ downloadsRemaining: 1, accessExpires: '2026-12-22T00:00:00+00:00' }, NOW)).toBe('available');
    expect(downloadState({ downloadsRemaining: 0, accessExpires: null }, NOW)).toBe('exhausted');
    expect(downloadState({ downloadsRemaining: 5, accessExpires: '2026-11-22T00:00:00+00:00' }, NOW)).toBe('expired');
  });

  it('dates follow the page language; unreadable dates are left out', () => {
    expect(formatDate('2026-11-22T10:00:00+00:00', 'en-US')).toBe('November 22, 2026');
    expect(formatDate('2026-11-22T10:00:00+00:00', 'de-DE')).toBe('22. November 2026');
    expect(formatDate(null, 'en-US')).toBeNull();
    expect(formatDate('someday', 'en-US')).toBeNull();
  });
});

describe('login provider of a redirect', () => {
  const url = (slug: string) =>
    `http://127.0.0.1:4398/authorize?client_id=x&redirect_uri=${encodeURIComponent(`http://localhost:4321/oauth/login/${slug}`)}&state=s`;

  it('reads the slug the provider sends the browser back to', () => {
    expect(redirectSlugOf(url('mock'))).toBe('mock');
    expect(redirectSlugOf('http://idp/authorize')).toBeNull();
    expect(redirectSlugOf('not a url')).toBeNull();
  });

  it('prefers the remembered button, then the enum name, then the matching login client', () => {
    const clients = [{ provider: 'OAUTH2_GENERIC' as const, authorizationUrl: url('acme') }];
    expect(providerForSlug('acme', { slug: 'acme', provider: 'GITHUB' }, clients)).toBe('GITHUB');
    expect(providerForSlug('google', null, clients)).toBe('GOOGLE');
    expect(providerForSlug('acme', null, clients)).toBe('OAUTH2_GENERIC');
    expect(providerForSlug('unknown', null, clients)).toBeNull();
    expect(providerForSlug('../x', null, clients)).toBeNull();
    // PASSWORD is not an external provider.
    expect(providerForSlug('password', null, [])).toBeNull();
  });
});

describe('wishlist sync', () => {
  const item = (databaseId: number) => ({
    databaseId,
    slug: `p${databaseId}`,
    name: `P${databaseId}`,
    image: null,
    price: null,
  });

  it('finds what was added and removed between two versions of the list', () => {
    expect(wishlistChanges([item(1), item(2)], [item(3), item(1)])).toEqual({ added: [3], removed: [2] });
    expect(wishlistChanges([], [])).toEqual({ added: [], removed: [] });
  });

  it('keeps a server product as the browser list keeps it', () => {
    const product = {
      __typename: 'SimpleProduct',
      type: 'SIMPLE',
      id: 'x',
      databaseId: 7,
      slug: 'meshfront-os',
      name: 'Meshfront OS',
      image: { sourceUrl: '/media/os.svg' },
      price: '€19.00',
      rawPrice: '19.00',
    };
    expect(wishlistItemOf(product as never)).toEqual({
      databaseId: 7,
      slug: 'meshfront-os',
      name: 'Meshfront OS',
      image: '/media/os.svg',
      price: '€19.00',
    });
  });
});
