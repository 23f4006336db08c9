/**
 * Where catalog images are served. Seed images are file names under content/catalog/images, served at
 * /media/catalog/<file>; uploaded ones are stored as their site path (/media/uploads/…). The API answers
 * with absolute URLs under MEDIA_BASE_URL (storefront/settings.ts), so a storefront on another origin can
 * show them as they come; the site's own build turns them back into site paths (src/lib/image/).
 */
const MEDIA_BASE = '/media/catalog/';

/** The site path of an image file (/media/catalog/omni.jpg). */
export function imagePath(file: string): string {
  return file.startsWith('/') ? file : MEDIA_BASE + file;
}

/** The absolute URL of an image file under `base` (an absolute URL without a trailing slash). */
export function imageUrl(file: string, base: string): string {
  return base + imagePath(file);
}
