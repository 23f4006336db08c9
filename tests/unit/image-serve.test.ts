import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getImageMeta } from '../../src/lib/image/meta.ts';
import { handleIpxRequest, handleOriginalRequest, readLocalImageMeta, SVG_CSP } from '../../src/lib/image/serve.ts';
import { resolveImageSource } from '../../src/lib/image/source.ts';

let root: string;
const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#0a7"/></svg>';

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'meshfront-img-'));
  mkdirSync(path.join(root, 'content/catalog/images'), { recursive: true });
  const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  writeFileSync(path.join(root, 'content/catalog/images/box.png'), png);
  writeFileSync(path.join(root, 'content/catalog/images/mark.svg'), svg);
  writeFileSync(path.join(root, 'secret.png'), png);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resolveImageSource', () => {
  it('maps /media/catalog and /media/uploads into their roots', () => {
    expect(resolveImageSource('/media/catalog/box.png', root)?.file).toBe(
      path.join(root, 'content/catalog/images/box.png'),
    );
    expect(resolveImageSource('media/uploads/a/b.webp', root)?.file).toBe(path.join(root, 'var/uploads/a/b.webp'));
  });

  it('serves uploads from ADMIN_UPLOADS_DIR when set: where the admin stored them', () => {
    const before = process.env.ADMIN_UPLOADS_DIR;
    process.env.ADMIN_UPLOADS_DIR = '/srv/shop/uploads';
    try {
      expect(resolveImageSource('media/uploads/catalog/kit.png', root)?.file).toBe('/srv/shop/uploads/catalog/kit.png');
      expect(resolveImageSource('media/uploads/../../etc/passwd.png', root)).toBeNull();
    } finally {
      if (before === undefined) delete process.env.ADMIN_UPLOADS_DIR;
      else process.env.ADMIN_UPLOADS_DIR = before;
    }
  });
  it('refuses traversal, unknown roots and unknown extensions', () => {
    for (const bad of [
      '/media/catalog/../../secret.png',
      '/media/catalog/..',
      '/media/catalog/.hidden.png',
      '/media/catalog/a/../../../secret.png',
      '/media/catalog/box.exe',
      '/media/catalog/box',
      '/media/catalog/x.png\0.svg',
      '/media/catalog/..\\secret.png',
      '/etc/passwd.png',
      '/media/other/box.png',
      '/media/catalog/',
    ]) {
      expect(resolveImageSource(bad, root), bad).toBeNull();
    }
  });
});

describe('handleIpxRequest', () => {
  it('resizes and converts with long cache headers', async () => {
    const response = await handleIpxRequest('w_100&f_webp/media/catalog/box.png', null, root);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toContain('max-age=31536000');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(100);
    expect(meta.height).toBe(50);
  });

  it('fits into a box with a background and reads percent-encoded separators', async () => {
    const response = await handleIpxRequest(
      's_64x64%26fit_contain%26b_ffffff%26f_png/media/catalog/box.png',
      null,
      root,
    );
    expect(response.status).toBe(200);
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 64, 64]);
  });

  it('rasterises SVG when asked for a size, and keeps it vector otherwise', async () => {
    const raster = await handleIpxRequest('w_50&f_png/media/catalog/mark.svg', null, root);
    expect(raster.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await raster.arrayBuffer())).metadata()).width).toBe(50);
    const vector = await handleIpxRequest('_/media/catalog/mark.svg', null, root);
    expect(vector.headers.get('content-type')).toBe('image/svg+xml');
    expect(vector.headers.get('content-security-policy')).toBe(SVG_CSP);
  });

  it('negotiates f_auto from the Accept header', async () => {
    const response = await handleIpxRequest('w_20&f_auto/media/catalog/box.png', 'image/avif,image/webp,*/*', root);
    expect(response.headers.get('content-type')).toBe('image/avif');
    expect(response.headers.get('vary')).toBe('Accept');
  });

  it('answers 400 for bad modifiers or paths and 404 for missing files', async () => {
    expect((await handleIpxRequest('w_99999/media/catalog/box.png', null, root)).status).toBe(400);
    expect((await handleIpxRequest('zz_1/media/catalog/box.png', null, root)).status).toBe(400);
    expect((await handleIpxRequest('w_10/media/catalog/%2E%2E/%2E%2E/secret.png', null, root)).status).toBe(400);
    expect((await handleIpxRequest('w_10/media/catalog/%E0%A4%A.png', null, root)).status).toBe(400);
    expect((await handleIpxRequest('w_10', null, root)).status).toBe(400);
    expect((await handleIpxRequest('w_10/media/catalog/none.png', null, root)).status).toBe(404);
  });
});

describe('handleOriginalRequest', () => {
  it('serves an SVG with its type and a restrictive CSP', async () => {
    const response = await handleOriginalRequest('/media/catalog/mark.svg', root);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('content-security-policy')).toBe(SVG_CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe(svg);
  });
  it('serves a PNG and refuses traversal and missing files with 404', async () => {
    expect((await handleOriginalRequest('/media/catalog/box.png', root)).headers.get('content-type')).toBe('image/png');
    expect((await handleOriginalRequest('/media/catalog/%2e%2e/%2e%2e/secret.png', root)).status).toBe(404);
    expect((await handleOriginalRequest('/media/catalog/nope.svg', root)).status).toBe(404);
  });
});

describe('readLocalImageMeta', () => {
  it('reads the size of a shop image, also from an absolute URL', async () => {
    expect(await getImageMeta('/media/catalog/box.png', (url) => readLocalImageMeta(url, root))).toEqual({
      width: 400,
      height: 200,
      ratio: 2,
    });
    expect(await readLocalImageMeta('http://shop.test/media/catalog/mark.svg', root)).toEqual({
      width: 200,
      height: 100,
    });
  });
  it('yields 0 sizes with the logged message for a missing or foreign image', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await getImageMeta('/media/catalog/gone.png', (url) => readLocalImageMeta(url, root))).toEqual({
      width: 0,
      height: 0,
      ratio: 0,
    });
    expect(await getImageMeta('/etc/passwd', (url) => readLocalImageMeta(url, root))).toEqual({
      width: 0,
      height: 0,
      ratio: 0,
    });
    expect(error.mock.calls.map((call) => call[0])).toEqual([
      'Failed to get image meta for /media/catalog/gone.png',
      'Failed to get image meta for /etc/passwd',
    ]);
    error.mockRestore();
  });
});
