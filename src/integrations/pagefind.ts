/**
 * Builds the Pagefind full-text index after `astro build` into <client>/pagefind/, so the support
 * search works on the static build with no server. Only regions marked data-pagefind-body (support
 * articles and guides) are indexed; Pagefind splits the index per language by <html lang>, and
 * the browser picks the index that matches the page it runs on.
 */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Support and guide pages in every locale ('support/…', 'de/guides/…'), relative to the client dir. */
const SEARCHABLE_PAGES = '{support,guides,*/support,*/guides}/**/*.html';

export default function pagefindIntegration(): AstroIntegration {
  return {
    name: 'meshfront:pagefind',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const pagefind = await import('pagefind');
        const site = fileURLToPath(dir);
        const started = Date.now();
        const { index, errors } = await pagefind.createIndex({});
        if (!index) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
        try {
          // Only support articles and guides carry data-pagefind-body; reading no other pages keeps the build fast.
          const added = await index.addDirectory({ path: site, glob: SEARCHABLE_PAGES });
          if (added.errors.length) throw new Error(`Pagefind indexing failed: ${added.errors.join('; ')}`);
          const written = await index.writeFiles({ outputPath: path.join(site, 'pagefind') });
          if (written.errors.length)
            throw new Error(`Pagefind could not write the index: ${written.errors.join('; ')}`);
          logger.info(
            `indexed ${added.page_count} pages in ${Date.now() - started} ms → ${path.relative(process.cwd(), written.outputPath)}`,
          );
        } finally {
          await pagefind.close();
        }
      },
    },
  };
}
