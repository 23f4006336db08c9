/** Screen widths (px) the responsive sizes refer to: `sizes="sm:100vw md:50vw lg:400px"`. */
export const SCREENS = {
  xs: 320,
  sm: 640,
  md: 768,
  lg: 1024,
  xl: 1280,
  xxl: 1536,
  '2xl': 1536,
} as const;

export const DEFAULT_DENSITIES = [1, 2] as const;
export const DEFAULT_FORMAT = 'webp';
