// The one list of cookies, storage keys and outside services (src/lib/privacy/cookies-and-processors.ts)
// against the code: every cookie or storage key the sources write must be in it, every first-party
// entry must still exist in the code, and every text must be there in all six languages.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/lib/i18n/locales';
import { CONSENT_SERVICES } from '../../src/lib/privacy/consent-services';
import { entryNames, PROCESSORS, STORAGE_ENTRIES, type Localized } from '../../src/lib/privacy/cookies-and-processors';

const SRC = path.resolve(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'generated') out.push(...sourceFiles(full));
    } else if (/\.(ts|tsx|astro|mjs)$/.test(name)) out.push(full);
  }
  return out;
}

const files = sourceFiles(SRC).map((file) => ({ file: path.relative(SRC, file), text: readFileSync(file, 'utf8') }));

/** Code that reads or writes browser storage or cookies. */
const STORAGE_API = /localStorage|sessionStorage|document\.cookie|writeCookie|writeLocal|persistentAtom|Set-Cookie/;

/**
 * Every cookie or storage name the sources write, by the shapes the code uses: constants named
 * *_COOKIE or *_STORAGE_KEY anywhere; other *_KEY / *_MARK constants in files that use a storage API;
 * persistentAtom's key; names assigned straight to document.cookie.
 */
function namesInCode(): Map<string, string> {
  const found = new Map<string, string>();
  const add = (name: string, file: string) => {
    if (!found.has(name)) found.set(name, file);
  };
  for (const { file, text } of files) {
    for (const m of text.matchAll(/\bconst\s+([A-Z][A-Z0-9_]*)\s*=\s*'([^']+)'/g)) {
      const [, constant, value] = m;
      if (/_(COOKIE|STORAGE_KEY)$/.test(constant!)) add(value!, file);
      else if (/(_KEY|_MARK)$/.test(constant!) && STORAGE_API.test(text) && !/server\//.test(file)) add(value!, file);
    }
    for (const m of text.matchAll(/persistentAtom(?:<[^>]*>)?\(\s*'([^']+)'/g)) add(m[1]!, file);
    for (const m of text.matchAll(/document\.cookie\s*=\s*\\?['"`]([A-Za-z0-9_-]+)=/g)) add(m[1]!, file);
  }
  return found;
}

const listed = new Set(STORAGE_ENTRIES.flatMap(entryNames));

describe('the list of cookies and storage', () => {
  it('holds every cookie and storage key the code sets', () => {
    const found = namesInCode();
    // The scan must keep seeing the well-known ones, or it has gone blind and proves nothing.
    for (const known of ['woocommerce-session', 'meshfront-auth', 'locale', 'meshfront_admin', 'meshfront:theme'])
      expect(found.has(known), `scan finds ${known}`).toBe(true);
    expect(found.has('meshfront:consent'), 'scan finds the consent key').toBe(true);
    const missing = [...found].filter(([name]) => !listed.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing, 'add these to src/lib/privacy/cookies-and-processors.ts').toEqual([]);
  });

  it('lists no first-party name the code no longer uses', () => {
    const code = files.filter((f) => !f.file.startsWith('lib/privacy/')).map((f) => f.text);
    const stale = STORAGE_ENTRIES.filter((e) => e.party === 'meshfront')
      .flatMap(entryNames)
      .filter((name) => !code.some((text) => text.includes(`'${name}'`)));
    expect(stale).toEqual([]);
  });

  it('has unique names and a known party for every entry', () => {
    const names = STORAGE_ENTRIES.flatMap(entryNames);
    expect(new Set(names).size).toBe(names.length);
    const ids = new Set(PROCESSORS.map((p) => p.id));
    for (const e of STORAGE_ENTRIES) if (e.party !== 'meshfront') expect(ids.has(e.party), e.name).toBe(true);
  });

  it('asks for consent exactly where the rules say', () => {
    for (const e of STORAGE_ENTRIES) {
      // Nothing first-party needs consent: the shop sets only what it needs or what the visitor asked for.
      if (e.party === 'meshfront') expect(e.consent, e.name).toBe(false);
      else expect(e.consent, e.name).toBe(PROCESSORS.find((p) => p.id === e.party)!.consent);
      if (e.consent) expect(e.category, e.name).toBe('third-party');
    }
    // Stripe serves the payment the shopper chose; reCAPTCHA has a first-party alternative (ALTCHA).
    expect(PROCESSORS.find((p) => p.id === 'stripe')!.consent).toBe(false);
    expect(PROCESSORS.find((p) => p.id === 'google-recaptcha')!.consent).toBe(true);
  });
});

describe('the list of services', () => {
  it('names the same consent services as the small browser module', () => {
    expect([...CONSENT_SERVICES].sort()).toEqual(
      PROCESSORS.filter((p) => p.consent)
        .map((p) => p.id)
        .sort(),
    );
  });

  it('covers every outside service the engine sends personal data to', () => {
    expect(PROCESSORS.map((p) => p.id).sort()).toEqual(
      ['chainweb', 'google-recaptcha', 'mail', 'oauth', 'stripe', 'vies'].sort(),
    );
  });

  it('names every setting that turns a service on as the engine reads it', () => {
    const engine = files.filter((f) => f.file.startsWith('server/')).map((f) => f.text);
    for (const p of PROCESSORS)
      expect(
        engine.some((text) => text.includes(p.setting)),
        p.setting,
      ).toBe(true);
  });
});

describe('translations', () => {
  it('has a label for every category, storage kind and page scope the tables print', () => {
    // Every locale has the same keys as English (tests/unit/i18n.test.ts); the tables build these keys.
    const english = JSON.parse(readFileSync(path.resolve(__dirname, '../../locales/en_US.json'), 'utf8')) as Record<
      string,
      string
    >;
    const keys = new Set<string>();
    for (const e of STORAGE_ENTRIES) {
      keys.add(`privacy.category.${e.category}`);
      keys.add(`privacy.storage.${e.storage}`);
      if (e.alternative) keys.add(`privacy.storage.${e.alternative.storage}`);
      for (const scope of e.pages) keys.add(`privacy.pages.${scope}`);
    }
    for (const p of PROCESSORS) {
      keys.add(`privacy.category.${p.category}`);
      for (const scope of p.pages) keys.add(`privacy.pages.${scope}`);
    }
    expect([...keys].filter((key) => !english[key])).toEqual([]);
  });

  const texts: [string, Localized][] = [
    ...STORAGE_ENTRIES.flatMap((e) => [
      [`${e.name} lifetime`, e.lifetime] as [string, Localized],
      [`${e.name} purpose`, e.purpose] as [string, Localized],
    ]),
    ...PROCESSORS.flatMap((p) => [
      [`${p.id} who`, p.who] as [string, Localized],
      [`${p.id} data`, p.data] as [string, Localized],
      [`${p.id} purpose`, p.purpose] as [string, Localized],
    ]),
  ];

  it.each(texts)('%s is written in all six languages', (_, text) => {
    for (const { code } of LOCALES) expect(text[code]?.trim(), code).toBeTruthy();
    // A translation that is the English text again was forgotten (short names and numbers aside).
    const english = text.en_US;
    if (english.length > 24)
      for (const { code } of LOCALES.slice(1)) expect(text[code], `${code} differs from English`).not.toBe(english);
  });
});
