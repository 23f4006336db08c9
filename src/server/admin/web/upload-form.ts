/**
 * The admin's file forms (multipart/form-data): a product image or a downloadable file. The body is read
 * here with a size limit — page routes have none in scripts/serve.mjs — before the multipart parser sees
 * it, and the file is checked before it goes to the admin endpoint (base64, as adminUploadImage and
 * adminAddProductDownload take it), so the operator gets a message next to the file field rather than
 * the endpoint's. The endpoint checks again (src/server/admin/uploads.ts) and stores the file under the
 * uploads or downloads directory with a name it makes.
 */
import { readBoundedBody } from '../../../lib/http/bounded-body.ts';
import { readAdminSettings } from '../settings.ts';
import { imageType } from '../uploads.ts';
import { FormFields, FormReadError } from './forms.ts';

/** Room for the multipart boundaries and the text fields around the file. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export type UploadedFile = { name: string; bytes: Buffer };
export type UploadForm = { fields: FormFields; file: UploadedFile | null; maxBytes: number };

export function isMultipart(request: Request): boolean {
  return (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
}

/** The largest file the admin accepts (ADMIN_MAX_UPLOAD_BYTES, the endpoint's own limit). */
export function maxUploadBytes(): number {
  return readAdminSettings().maxUploadBytes;
}

export const kb = (bytes: number) => `${Math.floor(bytes / 1024).toLocaleString('en')} KB`;

/**
 * A multipart form with at most one file (the field `file`). An empty file input (no file chosen) gives
 * `file: null`; the text fields come back as FormFields for the usual per-field checks.
 */
export async function readUploadForm(request: Request, maxBytes = maxUploadBytes()): Promise<UploadForm> {
  if (!isMultipart(request)) throw new FormReadError('The form was not sent as a file upload form.');
  const tooLarge = `The file is too large (at most ${kb(maxBytes)}).`;
  const body = await readBoundedBody(request, maxBytes + MULTIPART_OVERHEAD_BYTES);
  if (body === null) throw new FormReadError(tooLarge);
  let data: FormData;
  try {
    data = await new Response(new Uint8Array(body), {
      headers: { 'content-type': request.headers.get('content-type')! },
    }).formData();
  } catch {
    throw new FormReadError('The upload could not be read; please send the form again.');
  }
  const text = new URLSearchParams();
  let file: UploadedFile | null = null;
  for (const [name, value] of data.entries()) {
    if (typeof value === 'string') text.append(name, value);
    else if (name === 'file' && value.size > 0)
      file = { name: value.name || 'upload', bytes: Buffer.from(await value.arrayBuffer()) };
  }
  const fields = new FormFields(text);
  if (file && file.bytes.length > maxBytes) {
    fields.errors.file = tooLarge;
  }
  return { fields, file, maxBytes };
}

/** The image check the endpoint makes too (by the file's first bytes, never its name): a message or null. */
export function imageProblem(file: UploadedFile | null): string | null {
  if (!file) return 'Choose an image file to upload.';
  if (!imageType(file.bytes))
    return 'This file is not an image the shop can use: upload a PNG, JPEG, GIF, WebP or AVIF image.';
  return null;
}
