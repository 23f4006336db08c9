/** Browser-safe image helpers (no node: or sharp imports here; see source.ts and transform.ts for the server). */
export { getImage, getSizes, parseDensities, parseSizes, PLACEHOLDER_IMAGE, PRESETS } from './helper.ts';
export type { ImageOptions, ResponsiveImage, SizesOptions } from './helper.ts';
export { parseModifiers, serializeModifiers } from './modifiers.ts';
export type { ImageModifiers } from './modifiers.ts';
export { SCREENS } from './screens.ts';
export { getImageMeta } from './meta.ts';
