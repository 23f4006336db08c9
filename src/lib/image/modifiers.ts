/**
 * Image modifiers in the `/_ipx/{modifiers}/{path}` URL scheme, the one Nuxt Image's ipx provider
 * writes and unjs/ipx reads: `key_value` pairs joined with '&' (',' is read too), '_' for none.
 *
 *   /_ipx/w_640&f_webp/media/catalog/gateway.png
 *   /_ipx/s_96x96&fit_cover&q_70&f_webp/media/catalog/gateway.png
 *
 * Keys: f (format), fit, w (width), h (height), s (WxH, written when both width and height are set),
 * q (quality), b (background). Parsing is strict because the values reach sharp: unknown keys,
 * repeated keys and out-of-range values are refused, and the route answers 400.
 */

export const IMAGE_FORMATS = ['webp', 'avif', 'png', 'jpeg', 'jpg', 'gif', 'auto'] as const;
export const IMAGE_FITS = ['cover', 'contain', 'fill', 'inside', 'outside'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export type ImageFit = (typeof IMAGE_FITS)[number];

export const MAX_DIMENSION = 4096;

export interface ImageModifiers {
  format?: ImageFormat;
  fit?: ImageFit;
  width?: number;
  height?: number;
  quality?: number;
  /** Hex without '#' (fff, ffffff, ffffff80) or white/black/transparent. */
  background?: string;
}

const DIMENSION = /^[1-9]\d{0,3}$/;
const BACKGROUND = /^(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8}|white|black|transparent)$/i;

function dimension(value: string): number | null {
  if (!DIMENSION.test(value)) return null;
  const n = Number(value);
  return n <= MAX_DIMENSION ? n : null;
}

/** The modifiers segment for a URL; '_' when there are none. */
export function serializeModifiers(modifiers: ImageModifiers): string {
  const parts: string[] = [];
  if (modifiers.width && modifiers.height) parts.push(`s_${modifiers.width}x${modifiers.height}`);
  else if (modifiers.width) parts.push(`w_${modifiers.width}`);
  else if (modifiers.height) parts.push(`h_${modifiers.height}`);
  if (modifiers.fit) parts.push(`fit_${modifiers.fit}`);
  if (modifiers.background) parts.push(`b_${modifiers.background}`);
  if (modifiers.quality) parts.push(`q_${modifiers.quality}`);
  if (modifiers.format) parts.push(`f_${modifiers.format}`);
  return parts.length ? parts.join('&') : '_';
}

export type ParsedModifiers = { ok: true; modifiers: ImageModifiers } | { ok: false; error: string };

/** Reads a modifiers segment (already percent-decoded). */
export function parseModifiers(segment: string): ParsedModifiers {
  const modifiers: ImageModifiers = {};
  if (segment === '_' || segment === '') return { ok: true, modifiers };
  if (segment.length > 200) return { ok: false, error: 'Modifiers too long' };
  const seen = new Set<string>();
  for (const part of segment.split(/[&,]/)) {
    const cut = part.indexOf('_');
    if (cut <= 0) return { ok: false, error: `Malformed modifier: ${part}` };
    const key = part.slice(0, cut);
    const value = part.slice(cut + 1);
    if (seen.has(key)) return { ok: false, error: `Repeated modifier: ${key}` };
    seen.add(key);
    switch (key) {
      case 'w':
      case 'h': {
        const n = dimension(value);
        if (n === null) return { ok: false, error: `Invalid ${key}: ${value}` };
        if (key === 'w') modifiers.width = n;
        else modifiers.height = n;
        break;
      }
      case 's': {
        const match = /^(\d+)x(\d+)$/.exec(value);
        const width = match ? dimension(match[1]) : null;
        const height = match ? dimension(match[2]) : null;
        if (width === null || height === null) return { ok: false, error: `Invalid s: ${value}` };
        modifiers.width = width;
        modifiers.height = height;
        break;
      }
      case 'q': {
        const n = /^\d{1,3}$/.test(value) ? Number(value) : 0;
        if (n < 1 || n > 100) return { ok: false, error: `Invalid q: ${value}` };
        modifiers.quality = n;
        break;
      }
      case 'f':
        if (!(IMAGE_FORMATS as readonly string[]).includes(value)) return { ok: false, error: `Invalid f: ${value}` };
        modifiers.format = value as ImageFormat;
        break;
      case 'fit':
        if (!(IMAGE_FITS as readonly string[]).includes(value)) return { ok: false, error: `Invalid fit: ${value}` };
        modifiers.fit = value as ImageFit;
        break;
      case 'b':
        if (!BACKGROUND.test(value)) return { ok: false, error: `Invalid b: ${value}` };
        modifiers.background = value.toLowerCase();
        break;
      default:
        return { ok: false, error: `Unknown modifier: ${key}` };
    }
  }
  if (seen.has('s') && (seen.has('w') || seen.has('h')))
    return { ok: false, error: 's cannot be combined with w or h' };
  return { ok: true, modifiers };
}
