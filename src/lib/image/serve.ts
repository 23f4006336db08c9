/**
 * HTTP handlers behind src/pages/_ipx/[...path].ts and src/pages/media/catalog/[...file].ts, kept here
 * so they are plain functions (Request details in, Response out) that tests can call without Astro.
 * Server-only.
 */
import { readFile, stat } from 'node:fs/promises';
import { mediaCorsHeadersFromEnv } from '../http/cors-origins.ts';
import { parseModifiers } from './modifiers.ts';
import { resolveImageSource } from './source.ts';
import { transformImage } from './transform.ts';

/** Transformed variants are named by their URL, so they can be cached for a long time. */
export const TRANSFORMED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Originals keep their URL when an editor replaces the file: cache for a day, then revalidate. */
export const ORIGINAL_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';
/** An SVG opened directly must not run script or load anything. */
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

function text(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

function decodeSegments(path: string): string[] | null {
  try {
    return path.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
}

/** Small in-process LRU of transformed bytes; each API node keeps its own, which is fine for a cache. */
class ByteCache {
  private entries = new Map<string, { data: Uint8Array; contentType: string }>();
  private bytes = 0;
  constructor(private readonly budget: number) {}
  get(key: string) {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
  set(key: string, value: { data: Uint8Array; contentType: string }) {
    if (value.data.byteLength > this.budget / 4) return;
    this.entries.set(key, value);
    this.bytes += value.data.byteLength;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(oldest);
      this.bytes -= entry.data.byteLength;
    }
  }
}

const cache = new ByteCache(64 * 1024 * 1024);

async function readSource(file: string): Promise<{ data: Uint8Array; version: string } | null> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return null;
    return { data: await readFile(file), version: `${info.size}-${Math.floor(info.mtimeMs)}` };
  } catch {
    return null;
  }
}

/**
 * `/_ipx/{modifiers}/{path}`: `rest` is everything after '/_ipx/', as it appears in the URL.
 * 400 for bad modifiers or a path that is not an image path, 404 for a missing file.
 */
export async function handleIpxRequest(rest: string, accept: string | null, projectRoot?: string): Promise<Response> {
  const segments = decodeSegments(rest.replace(/^\/+/, ''));
  if (!segments || segments.length < 2) return text(400, 'Bad image URL: expected /_ipx/{modifiers}/{path}');
  const parsed = parseModifiers(segments[0]);
  if (!parsed.ok) return text(400, `Bad image modifiers: ${parsed.error}`);
  const source = resolveImageSource(segments.slice(1).join('/'), projectRoot);
  if (!source) return text(400, 'Bad image path');
  const original = await readSource(source.file);
  if (!original) return text(404, 'Image not found');

  const negotiates = parsed.modifiers.format === 'auto';
  const acceptKey = negotiates
    ? accept?.includes('image/avif')
      ? 'avif'
      : accept?.includes('image/webp')
        ? 'webp'
        : 'none'
    : '';
  const key = `${source.file}|${original.version}|${segments[0]}|${acceptKey}`;
  let result = cache.get(key);
  if (!result) {
    try {
      result = await transformImage(original.data, source.extension, parsed.modifiers, accept);
    } catch (error) {
      console.error(`Image transform failed for ${rest}`, String(error));
      return text(422, 'Image could not be processed');
    }
    cache.set(key, { data: result.data, contentType: result.contentType });
  }
  const headers: Record<string, string> = {
    'Content-Type': result.contentType,
    'Content-Length': String(result.data.byteLength),
    'Cache-Control': TRANSFORMED_CACHE_CONTROL,
    'X-Content-Type-Options': 'nosniff',
  };
  if (negotiates) headers.Vary = 'Accept';
  if (result.contentType === 'image/svg+xml') headers['Content-Security-Policy'] = SVG_CSP;
  return new Response(result.data as BodyInit, { status: 200, headers });
}

/**
 * A media response with the cross-origin headers CORS_ORIGINS calls for (src/lib/http/cors-origins.ts), so a
 * storefront on another site can show the shop's images. `origin` is the request's Origin header.
 */
export function withMediaCors(
  response: Response,
  origin: string | null,
  env: Record<string, string | undefined> = process.env,
): Response {
  for (const [name, value] of Object.entries(mediaCorsHeadersFromEnv(origin, env))) response.headers.set(name, value);
  return response;
}

/** The original file under /media/catalog/ (or /media/uploads/). 404 for anything not an existing image. */
export async function handleOriginalRequest(urlPath: string, projectRoot?: string): Promise<Response> {
  const segments = decodeSegments(urlPath.replace(/^\/+/, ''));
  const source = segments ? resolveImageSource(segments.join('/'), projectRoot) : null;
  if (!source) return text(404, 'Not found');
  const original = await readSource(source.file);
  if (!original) return text(404, 'Not found');
  const headers: Record<string, string> = {
    'Content-Type': source.contentType,
    'Content-Length': String(original.data.byteLength),
    'Cache-Control': ORIGINAL_CACHE_CONTROL,
    'X-Content-Type-Options': 'nosniff',
  };
  if (source.extension === 'svg') headers['Content-Security-Policy'] = SVG_CSP;
  return new Response(original.data as BodyInit, { status: 200, headers });
}

/**
 * Reads the pixel size of one of the shop's own images (for width/height attributes at build time).
 * Use through getImageMeta(url, readLocalImageMeta), which turns a failure into 0 sizes.
 */
export async function readLocalImageMeta(
  url: string,
  projectRoot?: string,
): Promise<{ width?: number; height?: number }> {
  const path = url.replace(/^https?:\/\/[^/]+/i, '').split(/[?#]/)[0];
  const source = resolveImageSource(path, projectRoot);
  if (!source) throw new Error(`Not a shop image path: ${url}`);
  const { default: sharp } = await import('sharp');
  const meta = await sharp(source.file, { limitInputPixels: 40_000_000 }).metadata();
  return { width: meta.width, height: meta.height };
}
