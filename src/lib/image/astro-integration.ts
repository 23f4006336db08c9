/**
 * Astro skips every file or folder under src/pages whose name starts with '_', so the transformer at
 * src/pages/_ipx/[...path].ts is not routed by the file system. This integration injects it at the
 * `/_ipx/{modifiers}/{path}` URL Nuxt Image's ipx scheme uses. Add to astro.config.mjs:
 *
 *   import { imageTransformer } from './src/lib/image/astro-integration.ts';
 *   integrations: [imageTransformer(), …]
 */
import type { AstroIntegration } from 'astro';

export function imageTransformer(): AstroIntegration {
  return {
    name: 'meshfront-image-transformer',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        injectRoute({ pattern: '/_ipx/[...path]', entrypoint: './src/pages/_ipx/[...path].ts', prerender: false });
      },
    },
  };
}
