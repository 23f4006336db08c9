// The settings headless storefronts read (src/server/storefront/settings.ts) and the media headers for
// storefronts on other sites (src/lib/http/cors-origins.ts, src/lib/image/serve.ts), and the site's own
// pages turning the API's absolute media URLs back into site paths (src/lib/image/helper.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GET as catalogMedia } from '../../src/pages/media/catalog/[...file].ts';
import { mediaCorsHeaders, parseCorsOrigins } from '../../src/lib/http/cors-origins.ts';
import { localiseImageUrl } from '../../src/lib/image/helper.ts';
import { withMediaCors } from '../../src/lib/image/serve.ts';
import { loadStorefrontSettings, StorefrontSettingsError } from '../../src/server/storefront/settings.ts';

describe('loadStorefrontSettings', () => {
  it('takes the media base URL and the front-end URL from the site URL unless set', () => {
    const s = loadStorefrontSettings({ PUBLIC_SITE_URL: 'https://shop.example/' });
    expect(s.siteUrl).toBe('https://shop.example');
    expect(s.mediaBaseUrl).toBe('https://shop.example');
    expect(s.frontendUrl).toBe('https://shop.example');
    expect(s.socialLinks).toEqual([]);
    const set = loadStorefrontSettings({
      PUBLIC_SITE_URL: 'https://shop.example',
      MEDIA_BASE_URL: 'https://cdn.example/shop/',
      HEADLESS_FRONTEND_URL: 'https://woonuxt.example',
    });
    expect(set.mediaBaseUrl).toBe('https://cdn.example/shop');
    expect(set.frontendUrl).toBe('https://woonuxt.example');
  });

  it('makes a relative logo absolute and maps the theme to its colour', () => {
    const s = loadStorefrontSettings({ PUBLIC_SITE_URL: 'https://shop.example', PUBLIC_LOGO: '/logo.svg' });
    expect(s.logo).toBe('https://shop.example/logo.svg');
    expect(s.primaryColor).toBe('#8200FF');
  });

  it('refuses bad values, naming the setting', () => {
    expect(() => loadStorefrontSettings({ MEDIA_BASE_URL: 'ftp://files.example' })).toThrow(/MEDIA_BASE_URL/);
    expect(() => loadStorefrontSettings({ HEADLESS_FRONTEND_URL: 'not a url' })).toThrow(/HEADLESS_FRONTEND_URL/);
    expect(() => loadStorefrontSettings({ STOREFRONT_SOCIAL_LINKS: '[{' })).toThrow(
      /STOREFRONT_SOCIAL_LINKS: not valid JSON/,
    );
    expect(() =>
      loadStorefrontSettings({ STOREFRONT_SOCIAL_LINKS: '[{"provider":"x","url":"javascript:alert(1)"}]' }),
    ).toThrow(StorefrontSettingsError);
    expect(() => loadStorefrontSettings({ PUBLIC_PRODUCTS_PER_PAGE: '0' })).toThrow(/PUBLIC_PRODUCTS_PER_PAGE/);
  });

  it('reads social links', () => {
    const s = loadStorefrontSettings({
      STOREFRONT_SOCIAL_LINKS: '[{"provider":"github","url":"https://github.com/meshfront"}]',
    });
    expect(s.socialLinks).toEqual([{ provider: 'github', url: 'https://github.com/meshfront', handle: null }]);
  });
});

describe('media for storefronts on other sites', () => {
  it('keeps the same-site policy without CORS origins', () => {
    expect(mediaCorsHeaders('https://woonuxt.example', [])).toEqual({});
    expect(parseCorsOrigins(undefined, true)).toEqual([]);
    expect(parseCorsOrigins('', false)).toEqual(['http://localhost:4321', 'http://localhost:4000']);
  });

  it('is cross-origin with CORS origins, and allows a listed origin CORS reads', () => {
    const origins = parseCorsOrigins(' https://woonuxt.example ,https://other.example', true);
    expect(mediaCorsHeaders(null, origins)).toEqual({ 'Cross-Origin-Resource-Policy': 'cross-origin', Vary: 'Origin' });
    expect(mediaCorsHeaders('https://woonuxt.example', origins)).toEqual({
      'Cross-Origin-Resource-Policy': 'cross-origin',
      Vary: 'Origin',
      'Access-Control-Allow-Origin': 'https://woonuxt.example',
    });
    expect(mediaCorsHeaders('https://evil.example', origins)['Access-Control-Allow-Origin']).toBeUndefined();
  });

  it('sets the headers on a media response from the environment', () => {
    const env = { NODE_ENV: 'production', CORS_ORIGINS: 'https://woonuxt.example' };
    const r = withMediaCors(new Response('x'), 'https://woonuxt.example', env);
    expect(r.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(r.headers.get('access-control-allow-origin')).toBe('https://woonuxt.example');
    expect(
      withMediaCors(new Response('x'), null, { NODE_ENV: 'production' }).headers.has('cross-origin-resource-policy'),
    ).toBe(false);
  });
});

describe('the /media/catalog route', () => {
  afterEach(() => vi.unstubAllEnvs());
  const get = async (origin?: string) =>
    (await catalogMedia({
      request: new Request('http://shop.example/media/catalog/cable-gland-pack.svg', {
        headers: origin ? { origin } : {},
      }),
    } as never)) as Response;

  it('answers cross-origin for the CORS origins, and adds nothing without them', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('CORS_ORIGINS', 'https://woonuxt.example');
    const listed = await get('https://woonuxt.example');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://woonuxt.example');
    expect((await get()).headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    vi.stubEnv('CORS_ORIGINS', '');
    const none = await get('https://woonuxt.example');
    expect(none.status).toBe(200);
    // The site server's own header (same-site, src/lib/http/node-hardening.ts) stays.
    expect(none.headers.has('cross-origin-resource-policy')).toBe(false);
    expect(none.headers.has('access-control-allow-origin')).toBe(false);
  });
});

describe('localiseImageUrl', () => {
  it("turns the API's absolute media URLs back into site paths, a CDN base path included", () => {
    expect(localiseImageUrl('http://localhost:4321/media/catalog/a.svg')).toBe('/media/catalog/a.svg');
    expect(localiseImageUrl('https://cdn.example/shop/media/uploads/catalog/b.png')).toBe(
      '/media/uploads/catalog/b.png',
    );
    expect(localiseImageUrl('/media/catalog/a.svg')).toBe('/media/catalog/a.svg');
    expect(localiseImageUrl('https://elsewhere.example/pictures/c.png')).toBe(
      'https://elsewhere.example/pictures/c.png',
    );
    expect(localiseImageUrl('https://cdn.example/media/catalog/a.svg?x=1')).toBe(
      'https://cdn.example/media/catalog/a.svg?x=1',
    );
  });
});
