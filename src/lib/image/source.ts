/**
 * Where an image URL path lives on disk, for the request-time transformer and the original-file route.
 * Server-only (node:path). Paths are validated strictly: known prefixes only, each segment a plain
 * file-name word, a known image extension, and the resolved file must stay inside its root.
 *
 *   /media/catalog/<file>  → content/catalog/images/<file>   (editors' seed images)
 *   /media/uploads/<file>  → $ADMIN_UPLOADS_DIR/<file>, default var/uploads (uploaded at run time:
 *                            the same directory the admin stores uploads in, src/server/admin/settings.ts)
 */
import path from 'node:path';

export const IMAGE_CONTENT_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};

/** Read per call: the uploads directory is a run-time setting (ADMIN_UPLOADS_DIR), not a build-time one. */
const sourceRoots = (): Record<string, string> => ({
  'media/catalog': 'content/catalog/images',
  'media/uploads': process.env.ADMIN_UPLOADS_DIR || 'var/uploads',
});

const SEGMENT = /^[a-z0-9][a-z0-9_-]*(?:\.[a-z0-9_-]+)*$/i;

export interface ImageSource {
  file: string;
  extension: string;
  contentType: string;
}

/**
 * Resolves 'media/catalog/gateway.png' (leading slash optional, already percent-decoded) to a file
 * under the project root; null when the path is not an allowed image path.
 */
export function resolveImageSource(urlPath: string, projectRoot: string = process.cwd()): ImageSource | null {
  if (typeof urlPath !== 'string' || urlPath.length > 300 || urlPath.includes('\\') || urlPath.includes('\0'))
    return null;
  const segments = urlPath.replace(/^\/+/, '').split('/');
  if (segments.length < 3) return null;
  const root = sourceRoots()[`${segments[0]}/${segments[1]}`];
  if (!root) return null;
  const rest = segments.slice(2);
  if (rest.length > 4 || !rest.every((segment) => SEGMENT.test(segment))) return null;
  const extension = rest[rest.length - 1].split('.').pop()!.toLowerCase();
  const contentType = IMAGE_CONTENT_TYPES[extension];
  if (!contentType || !rest[rest.length - 1].includes('.')) return null;
  const base = path.resolve(projectRoot, root);
  const file = path.resolve(base, ...rest);
  if (!file.startsWith(base + path.sep)) return null;
  return { file, extension, contentType };
}
