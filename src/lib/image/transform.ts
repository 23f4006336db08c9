/**
 * Request-time image transformation with sharp (server-only). SVG input is rasterised when a size or
 * a raster format is asked for; without modifiers an SVG stays a vector.
 */
import type { ImageFormat, ImageModifiers } from './modifiers.ts';

/** Refuse decompression bombs: larger inputs fail instead of exhausting memory. */
const MAX_INPUT_PIXELS = 40_000_000;

export interface TransformResult {
  data: Uint8Array;
  contentType: string;
  /** True when the output depends on the Accept header (f_auto). */
  negotiated: boolean;
}

const OUTPUT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  avif: 'image/avif',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};

type OutputFormat = 'webp' | 'avif' | 'png' | 'jpeg' | 'gif';

/** f_auto picks avif or webp when the browser says it takes them, else the source's own format. */
export function chooseFormat(
  requested: ImageFormat | undefined,
  sourceExtension: string,
  accept: string | null,
): OutputFormat | 'svg' {
  if (requested === 'auto') {
    if (accept?.includes('image/avif')) return 'avif';
    if (accept?.includes('image/webp')) return 'webp';
    return sourceExtension === 'svg' ? 'png' : sourceFormat(sourceExtension);
  }
  if (requested) return requested === 'jpg' ? 'jpeg' : requested;
  return sourceExtension === 'svg' ? 'svg' : sourceFormat(sourceExtension);
}

function sourceFormat(extension: string): OutputFormat {
  if (extension === 'jpg' || extension === 'jpeg') return 'jpeg';
  if (extension === 'png' || extension === 'webp' || extension === 'avif' || extension === 'gif') return extension;
  return 'png';
}

function background(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return /^[0-9a-f]+$/i.test(value) ? `#${value}` : value;
}

export async function transformImage(
  input: Uint8Array,
  sourceExtension: string,
  modifiers: ImageModifiers,
  accept: string | null = null,
): Promise<TransformResult> {
  const format = chooseFormat(modifiers.format, sourceExtension, accept);
  const negotiated = modifiers.format === 'auto';
  const resizes = modifiers.width !== undefined || modifiers.height !== undefined;
  if (format === 'svg' && !resizes) return { data: input, contentType: 'image/svg+xml', negotiated };

  const { default: sharp } = await import('sharp');
  // SVGs are rendered at a density that keeps them sharp at the requested size.
  let pipeline = sharp(input, {
    limitInputPixels: MAX_INPUT_PIXELS,
    density: sourceExtension === 'svg' ? 288 : undefined,
    animated: false,
  });
  if (resizes) {
    pipeline = pipeline.resize({
      width: modifiers.width,
      height: modifiers.height,
      fit: modifiers.fit ?? 'cover',
      background: background(modifiers.background) ?? { r: 0, g: 0, b: 0, alpha: 0 },
      withoutEnlargement: sourceExtension !== 'svg',
    });
  }
  const out: OutputFormat = format === 'svg' ? 'png' : format;
  if (modifiers.background && (out === 'jpeg' || modifiers.fit === 'contain'))
    pipeline = pipeline.flatten({ background: background(modifiers.background) });
  const quality = modifiers.quality;
  switch (out) {
    case 'webp':
      pipeline = pipeline.webp({ quality: quality ?? 80 });
      break;
    case 'avif':
      pipeline = pipeline.avif({ quality: quality ?? 55 });
      break;
    case 'jpeg':
      pipeline = pipeline.jpeg({ quality: quality ?? 80, mozjpeg: true });
      break;
    case 'png':
      pipeline = pipeline.png({ compressionLevel: 9, palette: quality !== undefined && quality < 100, quality });
      break;
    case 'gif':
      pipeline = pipeline.gif();
      break;
  }
  const data = await pipeline.toBuffer();
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    contentType: OUTPUT_TYPES[out],
    negotiated,
  };
}
