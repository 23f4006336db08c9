/**
 * Picks the shop locale for a visitor from the Accept-Language header (server) or
 * navigator.languages (browser). Pure, so the server rule, the inline fallback and tests agree.
 */
import { LOCALES, type LocaleInfo } from './locales.ts';

interface Preference {
  tag: string;
  q: number;
  order: number;
}

export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  const prefs: Preference[] = [];
  header.split(',').forEach((part, order) => {
    const [rawTag, ...params] = part.trim().split(';');
    const tag = rawTag?.trim().toLowerCase();
    if (!tag || tag === '*') return;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q=([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!Number.isFinite(q) || q <= 0) return;
    prefs.push({ tag, q, order });
  });
  return prefs.sort((a, b) => b.q - a.q || a.order - b.order).map((p) => p.tag);
}

/** The first preferred language the shop has: exact region match first, then the language alone. */
export function bestLocale(preferred: readonly string[]): LocaleInfo | undefined {
  for (const raw of preferred) {
    const tag = raw.toLowerCase();
    const exact = LOCALES.find((l) => l.bcp47.toLowerCase() === tag);
    if (exact) return exact;
    const language = tag.split('-')[0];
    const sameLanguage = LOCALES.find((l) => l.bcp47.toLowerCase().split('-')[0] === language);
    if (sameLanguage) return sameLanguage;
  }
  return undefined;
}

export function negotiateLocale(acceptLanguage: string | null | undefined): LocaleInfo | undefined {
  return bestLocale(parseAcceptLanguage(acceptLanguage));
}

/** Splits '/de/products' into the German locale and '/products'. Unprefixed paths are English. */
export function splitLocalePath(pathname: string): { locale: LocaleInfo; rest: string } {
  const first = pathname.split('/')[1]?.toLowerCase() ?? '';
  const locale = LOCALES.find((l, i) => i > 0 && l.path === first);
  if (!locale) return { locale: LOCALES[0]!, rest: pathname || '/' };
  const rest = pathname.slice(first.length + 1);
  return { locale, rest: rest || '/' };
}
