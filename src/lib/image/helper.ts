/**
 * The image helper: URLs and responsive `srcset`/`sizes` for product and category images.
 *
 *   getImage('/media/catalog/gateway.png', { preset: 'card' }).url
 *     → '/_ipx/s_480x480&fit_contain&b_ffffff&q_80&f_webp/media/catalog/gateway.png'
 *   getSizes('/media/catalog/gateway.png', { sizes: 'sm:100vw md:50vw lg:400px' })
 *     → { src, srcset: '…w_640… 640w, …', sizes: '(max-width: 640px) 100vw, (max-width: 768px) 50vw, 400px' }
 *
 * Rules: sizes are vw or px (a bare number is px); densities are positive numbers up to 4 ("1 2",
 * "x1 x2" or [1, 2]) and must not be empty; unknown providers and presets throw; a non-string source
 * throws, an empty one falls back to the placeholder. SVG and remote or data: sources are served as
 * they are: vectors scale without variants, and the transformer reads only the shop's own files.
 */
import { serializeModifiers, type ImageModifiers } from './modifiers.ts';
import { DEFAULT_DENSITIES, DEFAULT_FORMAT, SCREENS } from './screens.ts';

/** Neutral inline placeholder (no request, no file to ship): a light square with a picture glyph. */
export const PLACEHOLDER_IMAGE =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 96 96'%3E%3Crect width='96' height='96' fill='%23eef0f3'/%3E%3Cpath d='M28 64l14-18 10 12 7-8 9 14z' fill='%23c3c8d0'/%3E%3Ccircle cx='60' cy='36' r='6' fill='%23c3c8d0'/%3E%3C/svg%3E";

export const PRESETS: Record<string, ImageModifiers> = {
  thumbnail: { width: 96, height: 96, fit: 'contain', background: 'ffffff', quality: 75 },
  card: { width: 480, height: 480, fit: 'contain', background: 'ffffff', quality: 80 },
  gallery: { width: 960, height: 960, fit: 'contain', background: 'ffffff', quality: 85 },
  category: { width: 640, height: 400, fit: 'cover', quality: 80 },
};

export type ProviderName = 'ipx' | 'none';
const PROVIDERS: readonly string[] = ['ipx', 'none'];

export interface ImageOptions {
  modifiers?: ImageModifiers;
  preset?: string;
  provider?: string;
  /** Where the transformer is mounted. */
  baseURL?: string;
}

export interface SizesOptions extends ImageOptions {
  /** `sm:100vw md:50vw lg:400px`, or one size for every screen (`400`, `400px`, `50vw`). */
  sizes?: string | Record<string, string | number>;
  densities?: string | readonly number[];
}

export interface ResponsiveImage {
  src: string;
  srcset?: string;
  sizes?: string;
}

function isPassthrough(src: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(src) || /\.svg(?:$|[?#])/i.test(src);
}

function encodePath(path: string): string {
  return path
    .replace(/^\/+/, '')
    .split('/')
    .map((segment) => encodeURIComponent(decodeURIComponentSafe(segment)))
    .join('/');
}

function decodeURIComponentSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function checkSource(src: unknown): string {
  if (typeof src !== 'string')
    throw new TypeError(`Image source must be a string, got ${src === null ? 'null' : typeof src}`);
  return src.trim() === '' ? PLACEHOLDER_IMAGE : src.trim();
}

function resolveModifiers(options: ImageOptions): ImageModifiers {
  let base: ImageModifiers = {};
  if (options.preset !== undefined) {
    const preset = PRESETS[options.preset];
    if (!preset || !Object.hasOwn(PRESETS, options.preset)) throw new Error(`Unknown preset: ${options.preset}`);
    base = preset;
  }
  return { format: DEFAULT_FORMAT, ...base, ...options.modifiers };
}

function checkProvider(name: string | undefined): ProviderName {
  const provider = name ?? 'ipx';
  if (!PROVIDERS.includes(provider)) throw new Error(`Unknown provider: ${provider}`);
  return provider as ProviderName;
}

/** The URL of one image variant. */
export function getImage(src: string, options: ImageOptions = {}): { url: string } {
  const source = checkSource(src);
  const provider = checkProvider(options.provider);
  const modifiers = resolveModifiers(options);
  if (provider === 'none' || isPassthrough(source)) return { url: source };
  const base = (options.baseURL ?? '/_ipx').replace(/\/+$/, '');
  return { url: `${base}/${serializeModifiers(modifiers)}/${encodePath(source)}` };
}

/** "1 2", "x1 x2", [1, 2] → [1, 2]; invalid or empty densities throw. */
export function parseDensities(input: string | readonly number[] | undefined): number[] {
  if (input === undefined) return [...DEFAULT_DENSITIES];
  const tokens: (string | number)[] =
    typeof input === 'string'
      ? input
          .trim()
          .split(/[\s,]+/)
          .filter(Boolean)
      : [...input];
  if (tokens.length === 0) throw new Error('Densities must not be empty; use "1" to render regular size only.');
  const densities = tokens.map((token) => {
    const value = typeof token === 'number' ? token : Number(token.replace(/^x/i, '').replace(/x$/i, ''));
    if (!Number.isFinite(value) || value <= 0 || value > 4) throw new Error(`Invalid density: ${token}`);
    return value;
  });
  return [...new Set(densities)].sort((a, b) => a - b);
}

interface SizeEntry {
  /** Screen width the size applies up to; Infinity for the default. */
  screen: number;
  /** '100vw' or '400px'. */
  size: string;
  /** Rendered CSS width in px at that screen. */
  width: number;
}

function parseSize(raw: string | number, screen: number): { size: string; width: number } {
  const value = String(raw).trim();
  const match = /^(\d+(?:\.\d+)?)(vw|px)?$/.exec(value);
  if (!match) throw new Error(`Invalid image size "${value}": use vw or px (a bare number means px)`);
  const amount = Number(match[1]);
  const unit = match[2] ?? 'px';
  if (amount <= 0 || (unit === 'vw' && amount > 100)) throw new Error(`Invalid image size "${value}"`);
  const width = unit === 'vw' ? Math.round((amount / 100) * screen) : Math.round(amount);
  return { size: `${match[1]}${unit}`, width };
}

/** `sm:100vw md:50vw lg:400px` → entries sorted by screen; a size without a screen applies everywhere above the named ones. */
export function parseSizes(input: string | Record<string, string | number>): SizeEntry[] {
  const pairs: [string | null, string | number][] =
    typeof input === 'string'
      ? input
          .trim()
          .split(/[\s,]+/)
          .filter(Boolean)
          .map((token) => {
            const cut = token.indexOf(':');
            return cut === -1 ? [null, token] : [token.slice(0, cut), token.slice(cut + 1)];
          })
      : Object.entries(input);
  const entries: SizeEntry[] = [];
  const largest = Math.max(...Object.values(SCREENS));
  for (const [name, raw] of pairs) {
    if (name === null) {
      entries.push({ screen: Infinity, ...parseSize(raw, largest) });
      continue;
    }
    if (!Object.hasOwn(SCREENS, name)) throw new Error(`Unknown screen: ${name}`);
    const screen = SCREENS[name as keyof typeof SCREENS];
    entries.push({ screen, ...parseSize(raw, screen) });
  }
  return entries.sort((a, b) => a.screen - b.screen);
}

/**
 * `src`, `srcset` and `sizes` for an `<img>`. With `sizes`, one variant per screen entry and density
 * (width descriptors); without, one per density of the given width (density descriptors). The largest
 * size entry becomes the unconditional default of the `sizes` attribute.
 */
export function getSizes(src: string, options: SizesOptions = {}): ResponsiveImage {
  const source = checkSource(src);
  checkProvider(options.provider);
  const densities = parseDensities(options.densities);
  const modifiers = resolveModifiers(options);
  const ratio = modifiers.width && modifiers.height ? modifiers.height / modifiers.width : 0;
  const variant = (width: number | undefined) =>
    getImage(source, {
      ...options,
      preset: undefined,
      modifiers: {
        ...modifiers,
        width,
        height: width && ratio ? Math.round(width * ratio) : width ? undefined : modifiers.height,
      },
    }).url;

  if (isPassthrough(source) || options.provider === 'none') return { src: getImage(source, options).url };

  if (options.sizes === undefined || (typeof options.sizes === 'string' && options.sizes.trim() === '')) {
    const width = modifiers.width;
    const candidates = densities.map((density) => ({
      density,
      url: variant(width ? Math.round(width * density) : undefined),
    }));
    return {
      src: candidates[0].url,
      srcset: width ? candidates.map((c) => `${c.url} ${c.density}x`).join(', ') : undefined,
    };
  }

  const entries = parseSizes(options.sizes);
  const widths = new Set<number>();
  for (const entry of entries)
    for (const density of densities) widths.add(Math.min(Math.round(entry.width * density), 4096));
  const sorted = [...widths].sort((a, b) => a - b);
  const srcset = sorted.map((width) => `${variant(width)} ${width}w`).join(', ');

  // Collapse neighbours with the same size; the last entry is the default without a media query.
  const collapsed = entries.filter((entry, i) => i === entries.length - 1 || entry.size !== entries[i + 1].size);
  const sizes = collapsed
    .map((entry, i) => (i === collapsed.length - 1 ? entry.size : `(max-width: ${entry.screen}px) ${entry.size}`))
    .join(', ');
  const defaultWidth = Math.max(...entries.map((entry) => entry.width));
  return { src: variant(defaultWidth), srcset, sizes };
}

/**
 * The engine answers with absolute image URLs under its MEDIA_BASE_URL (http://shop/media/catalog/x.png,
 * or a CDN in front: https://cdn.example/shop/media/catalog/x.png). Images the shop serves itself are
 * turned back into site paths, so the site's pages keep relative URLs and the transformer (/_ipx) can
 * handle them; others stay as they are.
 */
export function localiseImageUrl(url: string | null | undefined): string {
  if (!url) return '';
  const match = /^https?:\/\/[^/?#]+[^?#]*?(\/media\/(?:catalog|uploads)\/[^?#]+)$/i.exec(url);
  return match ? match[1] : url;
}
