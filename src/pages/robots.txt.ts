import type { APIRoute } from 'astro';
import { LOCALES, localePrefix } from '../lib/i18n/locales';

/** robots.txt with the sitemap's absolute URL (the site URL is a setting). */
export const GET: APIRoute = ({ site }) => {
  const sitemap = new URL('/sitemap-index.xml', site ?? 'http://localhost:4321').toString();
  const body = [
    'User-agent: *',
    'Allow: /',
    // Private or per-visitor pages: nothing for a search engine there.
    ...LOCALES.flatMap((l) => [`Disallow: ${localePrefix(l)}/my-account`, `Disallow: ${localePrefix(l)}/checkout`]),
    'Disallow: /api/',
    'Disallow: /graphql',
    '',
    `Sitemap: ${sitemap}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
