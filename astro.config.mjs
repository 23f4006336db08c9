// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import mdx from '@astrojs/mdx';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { LOCALES, DEFAULT_LOCALE, localePrefix } from './src/lib/i18n/locales.ts';
import { REDIRECT_RULES } from './src/lib/http/redirects.ts';
import cartDirective from './src/integrations/cart-directive.ts';
import interactionDirective from './src/integrations/interaction-directive.ts';
import pagefind from './src/integrations/pagefind.ts';
import contentReferences from './src/integrations/content-references.ts';
import translationStatus from './src/integrations/translation-status.ts';
import { imageTransformer } from './src/lib/image/astro-integration.ts';

const site = process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321';

// One id per build: baked into every page (<meta name="build-id">) and written to
// /latest-build.json, which open tabs poll to notice a new deployment.
const buildId = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

/** Writes dist/client/latest-build.json after the build. */
function latestBuildFile() {
  return {
    name: 'meshfront:latest-build',
    hooks: {
      /** @param {{ dir: URL }} options */
      'astro:build:done': ({ dir }) => {
        const body = JSON.stringify({ id: buildId, builtAt: new Date().toISOString() });
        fs.writeFileSync(fileURLToPath(new URL('latest-build.json', dir)), body);
      },
    },
  };
}

// The redirect rules as static redirect pages for CDN hosting (the Node server answers them with
// a real 301 first, see src/lib/http/site-rules.ts), for every locale prefix.
const redirects = Object.fromEntries(
  LOCALES.flatMap((l) =>
    REDIRECT_RULES.map((r) => [
      `${localePrefix(l)}${r.from}`,
      { status: r.status, destination: r.to.startsWith('/') ? `${localePrefix(l)}${r.to}` : r.to },
    ]),
  ),
);

export default defineConfig({
  site,
  output: 'static',
  // 'standalone' so `node dist/server/entry.mjs` runs on its own (API nodes); scripts/serve.mjs
  // imports the same entry with autostart disabled and wraps it with locale negotiation and headers.
  adapter: node({ mode: 'standalone' }),
  // Carts and logins live in the commerce engine's database, not in Astro sessions.
  session: false,
  // The cross-site form guard lives in src/middleware.ts (same rule, one token-authorised exemption
  // for RFC 8058 one-click unsubscribe), see src/lib/http/origin-check.ts.
  security: { checkOrigin: false },
  // Separate caches let two builds run side by side (e.g. a publish while the site is serving).
  ...(process.env.ASTRO_CACHE_DIR ? { cacheDir: process.env.ASTRO_CACHE_DIR } : {}),
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  // Every same-site link is prefetched when it scrolls into view. Astro's prefetch skips this on
  // slow connections and with data saver on (navigator.connection.saveData or effectiveType 2g;
  // tests/e2e/shell.spec.ts checks it). Links opt out with data-astro-prefetch="false".
  prefetch: { prefetchAll: true, defaultStrategy: 'viewport' },
  redirects,
  i18n: {
    locales: LOCALES.map((l) => ({ path: l.path, codes: [l.bcp47] })),
    defaultLocale: DEFAULT_LOCALE.path,
    routing: { prefixDefaultLocale: false, redirectToDefaultLocale: false },
  },
  integrations: [
    // Broken links, anchors, images and related-article ids in content/ fail the build with file and line.
    contentReferences(),
    // Missing and stale translations, from git at build time, for the pages' notices and /admin/translations.
    translationStatus(),
    imageTransformer(),
    react(),
    mdx(),
    sitemap({
      filter: (page) =>
        !page.includes('/admin') &&
        !page.includes('/my-account') &&
        !page.includes('/checkout') &&
        !page.includes('/order-summary') &&
        !page.includes('/newsletter/') &&
        // Same text as /policies/privacy-policy, whose URL is the canonical one.
        (page.includes('/policies/') || !/\/privacy-policy\/?$/.test(page)) &&
        !/\/404\/?$/.test(page),
    }),
    latestBuildFile(),
    // client:panel — the cart drawer hydrates when the cart panel first opens (src/integrations).
    cartDirective(),
    // client:interaction — listing and product islands hydrate on the first interaction (src/integrations).
    interactionDirective(),
    pagefind(),
  ],
  vite: {
    plugins: [tailwindcss()],
    build: {
      rollupOptions: {
        // MDX modules start with Astro's own "use astro:head-inject" marker, which the bundler reports once
        // per MDX file (hundreds of lines per build) though Astro reads it before bundling; only that
        // report is dropped, so every other warning still reaches the editor.
        onwarn(warning, warn) {
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('use astro:head-inject')) return;
          warn(warning);
        },
      },
    },
    define: { __MESHFRONT_BUILD_ID__: JSON.stringify(buildId) },
    ssr: {
      // Native/wasm database drivers stay outside the bundle and load from node_modules at run time.
      external: ['@electric-sql/pglite', 'pg', 'drizzle-orm', 'sharp', 'nodemailer'],
    },
    optimizeDeps: { exclude: ['@electric-sql/pglite'] },
  },
});
