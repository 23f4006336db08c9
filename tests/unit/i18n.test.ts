import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/lib/i18n/locales';
import { formatDate, pickStrings, translate, useTranslations } from '../../src/lib/i18n';

const root = path.resolve(import.meta.dirname, '../..');
const load = (code: string): Record<string, string> =>
  JSON.parse(fs.readFileSync(path.join(root, 'locales', `${code}.json`), 'utf8'));
const en = load('en_US');
const englishKeys = new Set(Object.keys(en));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(astro|ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

/** Usage examples in comments are not calls: drop block comments and whole-line // comments. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** Literal keys in t('…') and translate(code, '…') calls. */
function usedKeys(raw: string): string[] {
  const source = stripComments(raw);
  const keys: string[] = [];
  const patterns = [
    /(?<![\w$.])t\(\s*(['"`])([A-Za-z][\w.-]*)\1/g,
    /\btranslate\(\s*[^,()]+,\s*(['"`])([A-Za-z][\w.-]*)\1/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) keys.push(m[2]!);
  return keys;
}

describe('locale files', () => {
  for (const { code } of LOCALES) {
    const strings = load(code);
    it(`${code} has every English key`, () => {
      expect([...englishKeys].filter((k) => !(k in strings))).toEqual([]);
    });
    it(`${code} has no key that English lacks`, () => {
      expect(Object.keys(strings).filter((k) => !englishKeys.has(k))).toEqual([]);
    });
    it(`${code} strings are non-empty and keep the English placeholders`, () => {
      for (const [key, value] of Object.entries(strings)) {
        expect(value.trim(), key).not.toBe('');
        const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        expect(names(value), key).toEqual(names(en[key] ?? ''));
      }
    });
  }

  it('translations are real, not English copies', () => {
    for (const { code } of LOCALES.slice(1)) {
      const strings = load(code);
      const long = Object.keys(en).filter((k) => en[k]!.length > 25);
      const copied = long.filter((k) => strings[k] === en[k]);
      // Brand-ish sentences may coincide; a copied locale would match nearly all of them.
      expect(copied.length / long.length, `${code} copies: ${copied.join(', ')}`).toBeLessThan(0.1);
    }
  });
});

describe('keys used in source code', () => {
  it('finds the key patterns it is meant to check', () => {
    expect(
      usedKeys(`t('header.cart') x.t('no') /** t('c.d') */ translate(code, "error.title", {}) t(\`a.b\`)`),
    ).toEqual(['header.cart', 'a.b', 'error.title']);
  });

  it('every literal key in src/ exists in en_US.json', () => {
    const missing: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src'))) {
      for (const key of usedKeys(fs.readFileSync(file, 'utf8'))) {
        if (!englishKeys.has(key)) missing.push(`${path.relative(root, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every mail text the templates say exists in en_US.json under engine.mail.', () => {
    const said = sourceFiles(path.join(root, 'src/server/mail/templates')).flatMap((file) => [
      ...stripComments(fs.readFileSync(file, 'utf8')).matchAll(/(?<![\w$.])say\(\s*(['"`])([A-Za-z][\w.-]*)\1/g),
    ]);
    expect(said.length).toBeGreaterThan(20);
    expect(said.map((m) => `engine.mail.${m[2]}`).filter((k) => !englishKeys.has(k))).toEqual([]);
  });
});

describe('translate', () => {
  it('interpolates and falls back to English, then to the key', () => {
    expect(translate('de_DE', 'error.title', { code: 404 })).toBe('Fehler 404');
    expect(useTranslations('fr_FR')('header.cartCount.other', { count: 2 })).toBe('2 articles dans votre panier');
    expect(translate('de_DE', 'no.such.key')).toBe('no.such.key');
  });

  it('picks strings for islands by prefix', () => {
    const s = pickStrings('it_IT', ['cartPanel.']);
    expect(s['cartPanel.empty']).toBe('Il tuo carrello è vuoto');
    expect(Object.keys(s).every((k) => k.startsWith('cartPanel.'))).toBe(true);
  });

  it('formats dates with a long month, day and year', () => {
    const d = new Date(Date.UTC(2026, 10, 22, 12));
    expect(formatDate(d, 'en_US')).toBe('November 22, 2026');
    expect(formatDate(d, 'de_DE')).toBe('22. November 2026');
    expect(formatDate(d, 'pt_BR')).toBe('22 de novembro de 2026');
  });
});
