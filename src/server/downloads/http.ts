/**
 * GET /api/downloads/<token> (src/pages/api/downloads/[token].ts is a thin wrapper): streams the file
 * of a signed download link as an attachment, or answers the refusal as plain text (404 unknown link,
 * 403 expired / not yours / limit reached). A prefetch of the link gets 204 and counts nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { DownloadService } from './service.ts';

const TYPES: Record<string, string> = {
  '.zip': 'application/zip',
  '.pdf': 'application/pdf',
  '.img': 'application/octet-stream',
  '.gz': 'application/gzip',
  '.txt': 'text/plain; charset=utf-8',
};

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** `Sec-Purpose: prefetch` (Chromium, Firefox) / `Purpose: prefetch` (older browsers, Safari). */
function isSpeculative(request: Request): boolean {
  const purpose = `${request.headers.get('sec-purpose') ?? ''} ${request.headers.get('purpose') ?? ''}`;
  return /\b(prefetch|prerender)\b/i.test(purpose);
}

export async function handleDownloadRequest(
  request: Request,
  token: string,
  downloads: DownloadService,
): Promise<Response> {
  const common = {
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return new Response('Use GET.', {
      status: 405,
      headers: { ...common, allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
    });
  // HEAD would count as a download: answer it without touching the count.
  if (request.method === 'HEAD') return new Response(null, { status: 405, headers: { ...common, allow: 'GET' } });
  // Nor does a browser's prefetch or prerender of the link (a storefront prefetching links as they
  // scroll into view, speculation rules): the shopper did not ask for the file, so nothing is counted.
  if (isSpeculative(request))
    return new Response(null, { status: 204, headers: { ...common, vary: 'Sec-Purpose, Purpose' } });
  const r = await downloads.serve(token);
  if (!r.ok)
    return new Response(r.message, {
      status: r.status,
      headers: { ...common, 'content-type': 'text/plain; charset=utf-8' },
    });
  const stream = Readable.toWeb(fs.createReadStream(r.file)) as unknown as ReadableStream<Uint8Array>;
  return new Response(stream, {
    status: 200,
    headers: {
      ...common,
      'content-type': TYPES[path.extname(r.filename).toLowerCase()] ?? 'application/octet-stream',
      'content-length': String(r.size),
      'content-disposition': contentDisposition(r.filename),
      ...(r.remaining !== null ? { 'x-downloads-remaining': String(r.remaining) } : {}),
    },
  });
}
