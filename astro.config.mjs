// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import mdx from '@astrojs/mdx';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import { LOCALES, DEFAULT_LOCALE } from './src/lib/i18n/locales.ts';

const site = process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321';

export default defineConfig({
  site,
  output: 'static',
  // 'standalone' so `node dist/server/entry.mjs` runs on its own (API nodes); scripts/serve.mjs
  // imports the same entry with autostart disabled and wraps it with locale negotiation and headers.
  adapter: node({ mode: 'standalone' }),
  // Carts and logins live in the commerce engine's database, not in Astro sessions.
  session: false,
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  prefetch: { prefetchAll: false, defaultStrategy: 'viewport' },
  i18n: {
    locales: LOCALES.map((l) => ({ path: l.path, codes: [l.bcp47] })),
    defaultLocale: DEFAULT_LOCALE.path,
    routing: { prefixDefaultLocale: false, redirectToDefaultLocale: false },
  },
  integrations: [
    react(),
    mdx(),
    sitemap({
      filter: (page) => !page.includes('/admin') && !page.includes('/my-account') && !page.includes('/checkout'),
    }),
  ],
  vite: {
    plugins: [tailwindcss()],
    ssr: {
      // Native/wasm database drivers stay outside the bundle and load from node_modules at run time.
      external: ['@electric-sql/pglite', 'pg', 'drizzle-orm', 'sharp', 'nodemailer'],
    },
    optimizeDeps: { exclude: ['@electric-sql/pglite'] },
  },
});
