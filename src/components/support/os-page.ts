/**
 * The OS product page's route segment: '<product>-os' from the configured site name
 * (PUBLIC_SITE_NAME 'Meshfront' → 'meshfront-os'). The page content always comes from
 * content/pages/meshfront-os.mdx.
 */
import { storeSettings } from '../../lib/config/store';

export function osPageSlug(siteName: string = storeSettings.siteName): string {
  const base = siteName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${base || 'meshfront'}-os`;
}
