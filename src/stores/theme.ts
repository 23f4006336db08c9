/**
 * Colour theme: the store setting mainColor is the default; a visitor's choice is kept in
 * localStorage. The inline head script (ThemeScript.astro) applies it before first paint.
 */
import { persistentAtom } from '@nanostores/persistent';

export type Theme = 'primary' | 'secondary';
export const THEME_STORAGE_KEY = 'meshfront:theme';

export const $themeChoice = persistentAtom<Theme | ''>(THEME_STORAGE_KEY, '', {
  encode: (v) => v,
  decode: (v) => (v === 'primary' || v === 'secondary' ? v : ''),
});

export function currentTheme(fallback: Theme): Theme {
  return $themeChoice.get() || fallback;
}

export function setTheme(theme: Theme): void {
  $themeChoice.set(theme);
  document.documentElement.dataset.theme = theme;
}
