/**
 * Files an operator uploads through the admin API (base64 in a mutation, size-limited): product images
 * (checked by their first bytes, never SVG — it can carry script) and downloadable files. Names are made
 * here (a slug of the given name plus random hex), so an upload never overwrites or escapes its directory.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AdminError } from './errors.ts';

const IMAGE_TYPES: { ext: string; test: (b: Buffer) => boolean }[] = [
  { ext: 'png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: 'gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  {
    ext: 'webp',
    test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  { ext: 'avif', test: (b) => b.subarray(4, 12).toString('latin1') === 'ftypavif' },
];

/** Decodes strict base64 (padding optional, no data: prefix) and enforces the size limit. */
export function decodeUpload(contentBase64: string, maxBytes: number): Buffer {
  const s = (contentBase64 ?? '').replace(/\s+/g, '');
  if (!s) throw new AdminError('The file is empty.');
  if (s.length > Math.ceil((maxBytes * 4) / 3) + 4)
    throw new AdminError(`The file is too large (at most ${Math.floor(maxBytes / 1024)} KB).`);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(s))
    throw new AdminError('The file content must be base64 (without a data: prefix).');
  const bytes = Buffer.from(s, 'base64');
  if (!bytes.length) throw new AdminError('The file is empty.');
  if (bytes.length > maxBytes)
    throw new AdminError(`The file is too large (at most ${Math.floor(maxBytes / 1024)} KB).`);
  return bytes;
}

export function safeBaseName(fileName: string): string {
  const base = path.basename(fileName ?? '').replace(/\.[^.]*$/, '');
  return (
    base
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'file'
  );
}

export function imageType(bytes: Buffer): string | null {
  return IMAGE_TYPES.find((t) => t.test(bytes))?.ext ?? null;
}

async function imageSize(bytes: Buffer): Promise<{ width: number | null; height: number | null }> {
  try {
    const sharp = (await import('sharp')).default;
    const m = await sharp(bytes).metadata();
    return { width: m.width ?? null, height: m.height ?? null };
  } catch {
    throw new AdminError('The image could not be read; upload a PNG, JPEG, GIF, WebP or AVIF file.');
  }
}

/** Stores an image under <uploadsDir>/catalog/; returns its site path (/media/uploads/catalog/…) and size. */
export async function storeImage(
  uploadsDir: string,
  fileName: string,
  bytes: Buffer,
): Promise<{ sitePath: string; width: number | null; height: number | null }> {
  const ext = imageType(bytes);
  if (!ext) throw new AdminError('Only PNG, JPEG, GIF, WebP and AVIF images can be uploaded.');
  const size = await imageSize(bytes);
  const name = `${safeBaseName(fileName)}-${crypto.randomBytes(4).toString('hex')}.${ext}`;
  const dir = path.join(uploadsDir, 'catalog');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, name), bytes, { flag: 'wx' });
  return { sitePath: `/media/uploads/catalog/${name}`, ...size };
}

/** Stores a downloadable file in `dir` (the data directory's downloads/); returns the stored file name. */
export async function storeDownload(dir: string, fileName: string, bytes: Buffer): Promise<string> {
  const ext = (/\.([a-z0-9]{1,10})$/i.exec(path.basename(fileName ?? ''))?.[1] ?? 'bin').toLowerCase();
  const name = `${safeBaseName(fileName)}-${crypto.randomBytes(4).toString('hex')}.${ext}`;
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, name), bytes, { flag: 'wx' });
  return name;
}
