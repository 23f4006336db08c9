/**
 * The island-side string lookup: islands get the strings they need from the page (a plain object
 * picked from locales/<locale>.json at build time) instead of shipping an i18n runtime.
 *
 *   const t = createLookup(strings);
 *   t('catalog.showing', { from: 1, to: 24, total: 60 })  // "Showing 1 to 24 of 60"
 *
 * A missing key returns the key itself, so a gap is visible instead of silently blank.
 */
export type Strings = Readonly<Record<string, string>>;
export type Params = Readonly<Record<string, string | number>>;
export type Lookup = (key: string, params?: Params) => string;

export function interpolate(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

export function createLookup(strings: Strings): Lookup {
  return (key, params) => interpolate(strings[key] ?? key, params);
}
