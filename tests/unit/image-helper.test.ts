import { afterEach, describe, expect, it, vi } from 'vitest';
import { getImage, getSizes, parseDensities, parseSizes, PLACEHOLDER_IMAGE } from '../../src/lib/image/helper.ts';
import { getImageMeta } from '../../src/lib/image/meta.ts';
import { parseModifiers, serializeModifiers } from '../../src/lib/image/modifiers.ts';

afterEach(() => vi.restoreAllMocks());

describe('modifiers', () => {
  it('serializes in the ipx scheme', () => {
    expect(serializeModifiers({ width: 640, format: 'webp' })).toBe('w_640&f_webp');
    expect(
      serializeModifiers({ width: 96, height: 96, fit: 'cover', quality: 70, background: 'ffffff', format: 'webp' }),
    ).toBe('s_96x96&fit_cover&b_ffffff&q_70&f_webp');
    expect(serializeModifiers({ height: 200 })).toBe('h_200');
    expect(serializeModifiers({})).toBe('_');
  });

  it('parses what it serializes, with & or , between pairs', () => {
    expect(parseModifiers('w_640&f_webp')).toEqual({ ok: true, modifiers: { width: 640, format: 'webp' } });
    expect(parseModifiers('s_96x48,fit_contain,b_fff,q_70')).toEqual({
      ok: true,
      modifiers: { width: 96, height: 48, fit: 'contain', background: 'fff', quality: 70 },
    });
    expect(parseModifiers('_')).toEqual({ ok: true, modifiers: {} });
    const all = {
      width: 300,
      height: 200,
      fit: 'inside' as const,
      background: 'white',
      quality: 90,
      format: 'avif' as const,
    };
    expect(parseModifiers(serializeModifiers(all))).toEqual({ ok: true, modifiers: all });
  });

  it('refuses bad modifiers', () => {
    const bad = [
      'w_0',
      'w_-5',
      'w_5000',
      'w_12.5',
      'h_abc',
      's_10',
      's_10x0',
      'q_0',
      'q_101',
      'f_bmp',
      'f_svg',
      'fit_stretch',
      'b_#fff',
      'b_url(x)',
      'x_1',
      'w',
      'w_10&w_20',
      's_10x10&w_10',
      '_w_10',
    ];
    for (const segment of bad) expect(parseModifiers(segment).ok, segment).toBe(false);
  });
});

describe('getImage', () => {
  it('builds /_ipx/{modifiers}/{path} URLs with webp by default', () => {
    expect(getImage('/media/catalog/gateway.png', { modifiers: { width: 640 } }).url).toBe(
      '/_ipx/w_640&f_webp/media/catalog/gateway.png',
    );
    expect(getImage('media/catalog/gateway.png').url).toBe('/_ipx/f_webp/media/catalog/gateway.png');
    expect(getImage('/media/catalog/my photo.png', { modifiers: { format: 'png' } }).url).toBe(
      '/_ipx/f_png/media/catalog/my%20photo.png',
    );
  });

  it('applies presets and lets modifiers override them', () => {
    expect(getImage('/media/catalog/a.png', { preset: 'thumbnail' }).url).toBe(
      '/_ipx/s_96x96&fit_contain&b_ffffff&q_75&f_webp/media/catalog/a.png',
    );
    expect(getImage('/media/catalog/a.png', { preset: 'thumbnail', modifiers: { format: 'avif' } }).url).toContain(
      'f_avif',
    );
  });

  it('throws for unknown providers and presets', () => {
    expect(() => getImage('/a.png', { provider: 'cloudinary' })).toThrow('Unknown provider: cloudinary');
    expect(() => getImage('/a.png', { preset: 'huge' })).toThrow('Unknown preset: huge');
    expect(() => getImage('/a.png', { preset: 'toString' })).toThrow('Unknown preset: toString');
  });

  it('throws for a non-string source and falls back to the placeholder for an empty one', () => {
    expect(() => getImage(undefined as unknown as string)).toThrow(TypeError);
    expect(() => getImage(null as unknown as string)).toThrow(TypeError);
    expect(() => getImage(42 as unknown as string)).toThrow(TypeError);
    expect(getImage('').url).toBe(PLACEHOLDER_IMAGE);
    expect(getImage('   ').url).toBe(PLACEHOLDER_IMAGE);
  });

  it('passes SVG, remote and data: sources and the none provider through', () => {
    expect(getImage('/media/catalog/logo.svg', { modifiers: { width: 100 } }).url).toBe('/media/catalog/logo.svg');
    expect(getImage('https://cdn.example/x.png').url).toBe('https://cdn.example/x.png');
    expect(getImage('//cdn.example/x.png').url).toBe('//cdn.example/x.png');
    expect(getImage('/media/catalog/a.png', { provider: 'none' }).url).toBe('/media/catalog/a.png');
  });
});

describe('parseSizes', () => {
  it('reads vw and px per screen, a bare number as px', () => {
    expect(parseSizes('sm:100vw md:50vw lg:400')).toEqual([
      { screen: 640, size: '100vw', width: 640 },
      { screen: 768, size: '50vw', width: 384 },
      { screen: 1024, size: '400px', width: 400 },
    ]);
    expect(parseSizes({ xl: '25vw', '2xl': 300 })).toEqual([
      { screen: 1280, size: '25vw', width: 320 },
      { screen: 1536, size: '300px', width: 300 },
    ]);
    expect(parseSizes('xs:100vw xxl:20vw')[1]).toEqual({ screen: 1536, size: '20vw', width: 307 });
  });
  it('refuses other units, bad values and unknown screens', () => {
    for (const bad of ['sm:50%', 'md:20em', 'lg:calc(100vw-2rem)', 'sm:0', 'sm:120vw', 'sm:-1px'])
      expect(() => parseSizes(bad), bad).toThrow(/Invalid image size/);
    expect(() => parseSizes('huge:100vw')).toThrow('Unknown screen: huge');
  });
});

describe('parseDensities', () => {
  it('reads densities in several spellings, defaulting to 1 and 2', () => {
    expect(parseDensities(undefined)).toEqual([1, 2]);
    expect(parseDensities('x1 x2')).toEqual([1, 2]);
    expect(parseDensities('2 1 2')).toEqual([1, 2]);
    expect(parseDensities([1, 1.5])).toEqual([1, 1.5]);
  });
  it('rejects invalid and empty densities', () => {
    for (const bad of ['0', '-1', 'x', 'abc', '5', [NaN], [0]])
      expect(() => parseDensities(bad as string), String(bad)).toThrow(/Invalid density/);
    expect(() => parseDensities('')).toThrow(/must not be empty/);
    expect(() => parseDensities([])).toThrow(/must not be empty/);
  });
});

describe('getSizes', () => {
  it('gives a width-descriptor srcset for every screen size and density, webp', () => {
    const result = getSizes('/media/catalog/g.png', { sizes: 'sm:100vw md:50vw lg:400px' });
    expect(result.sizes).toBe('(max-width: 640px) 100vw, (max-width: 768px) 50vw, 400px');
    const widths = result.srcset!.split(', ').map((entry) => entry.split(' ')[1]);
    expect(widths).toEqual(['384w', '400w', '640w', '768w', '800w', '1280w']);
    expect(result.srcset).toContain('/_ipx/w_640&f_webp/media/catalog/g.png 640w');
    expect(result.src).toBe('/_ipx/w_640&f_webp/media/catalog/g.png');
  });

  it('keeps the aspect ratio of a preset', () => {
    const result = getSizes('/media/catalog/g.png', { preset: 'category', sizes: 'sm:320px', densities: '1' });
    expect(result.srcset).toBe('/_ipx/s_320x200&fit_cover&q_80&f_webp/media/catalog/g.png 320w');
  });

  it('gives density descriptors without sizes', () => {
    const result = getSizes('/media/catalog/g.png', { modifiers: { width: 200 } });
    expect(result.srcset).toBe('/_ipx/w_200&f_webp/media/catalog/g.png 1x, /_ipx/w_400&f_webp/media/catalog/g.png 2x');
    expect(result.src).toBe('/_ipx/w_200&f_webp/media/catalog/g.png');
  });

  it('collapses neighbouring screens with the same size', () => {
    expect(getSizes('/a.png', { sizes: 'xs:100vw sm:100vw lg:50vw' }).sizes).toBe('(max-width: 640px) 100vw, 50vw');
  });

  it('applies the same input rules as getImage', () => {
    expect(() => getSizes('/a.png', { densities: '' })).toThrow(/must not be empty/);
    expect(() => getSizes('/a.png', { sizes: 'sm:3em' })).toThrow(/Invalid image size/);
    expect(() => getSizes(7 as unknown as string)).toThrow(TypeError);
    expect(getSizes('/media/catalog/v.svg', { sizes: 'sm:100vw' })).toEqual({ src: '/media/catalog/v.svg' });
  });
});

describe('getImageMeta', () => {
  it('returns dimensions and ratio', async () => {
    expect(await getImageMeta('/a.png', async () => ({ width: 800, height: 400 }))).toEqual({
      width: 800,
      height: 400,
      ratio: 2,
    });
  });
  it("logs 'Failed to get image meta for {url}' and yields 0 sizes on failure", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await getImageMeta('/missing.png', async () => Promise.reject(new Error('ENOENT')))).toEqual({
      width: 0,
      height: 0,
      ratio: 0,
    });
    expect(error.mock.calls[0][0]).toBe('Failed to get image meta for /missing.png');
    expect(await getImageMeta('/empty.png', async () => ({}))).toEqual({ width: 0, height: 0, ratio: 0 });
  });
});
