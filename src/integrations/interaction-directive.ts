/**
 * `client:interaction` — hydrates an island on the visitor's first interaction with the page (a pointer
 * move or press, a touch, a key, scrolling, a wheel turn or focus), the spec's 'delay store start until
 * user action'. Listing and product pages use it so that React, which alone is ~65 KB gzip, is not part
 * of what a phone loads before anyone touches the page (the JavaScript budget `npm run bench` checks). The static HTML is complete
 * and correct until then.
 *
 *   <ProductList client:interaction={{ query: ['filter', 'search', 'orderby', 'order'] }} … />
 *     also hydrates at once when the page URL carries one of these query parameters (the static HTML
 *     shows the unfiltered list, so it would be wrong);
 *   <VariationPicker client:interaction={{ event: 'meshfront:live-stock-changed' }} … />
 *     also hydrates at once when that event is dispatched on window (the product page does so when the
 *     live price or stock differs from the prebuilt page).
 *
 * A click inside a waiting island (a tap that races the download) is held and replayed once the island
 * has hydrated, so it is never silently lost; plain links are left to the browser.
 *
 * Registered in astro.config.mjs: integrations: [interactionDirective()].
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

export default function interactionDirective(): AstroIntegration {
  return {
    name: 'meshfront:client-interaction',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'interaction',
          entrypoint: fileURLToPath(new URL('./interaction-client.ts', import.meta.url)),
        });
      },
    },
  };
}

declare global {
  namespace Astro {
    interface ClientDirectives {
      /** Hydrate on the first interaction with the page, or at once when the URL has one of `query` or `event` fires. */
      'client:interaction'?: boolean | { query?: string[]; event?: string };
    }
  }
}
