/**
 * `client:panel` — hydrates an island the first time the side panel around it opens (the shell marks an
 * open panel with `data-open`). The cart drawer uses it: content pages ship no React until the shopper
 * opens the cart, to keep within the JavaScript budget `npm run bench` checks. `client:panel="cart"` names the panel
 * (`[data-panel="cart"]`); without a value the island's closest `[data-panel]` is watched.
 *
 * Registered in astro.config.mjs: integrations: [cartDirective()].
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

export default function cartDirective(): AstroIntegration {
  return {
    name: 'meshfront:client-panel',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'panel',
          entrypoint: fileURLToPath(new URL('./panel-directive.ts', import.meta.url)),
        });
      },
    },
  };
}

declare global {
  namespace Astro {
    interface ClientDirectives {
      /** Hydrate when the named side panel (or the closest one) first opens. */
      'client:panel'?: boolean | string;
    }
  }
}
