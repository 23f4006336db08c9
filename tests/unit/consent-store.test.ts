// The visitor's privacy choice (src/stores/consent.ts): what counts as a choice, where it is kept, and
// that reCAPTCHA is allowed only after "Accept".
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSENT_MAX_AGE_DAYS } from '../../src/lib/privacy/consent-services';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 29, 9, 0, 0);

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  };
}

let storage: Storage;
async function freshStore() {
  vi.resetModules();
  return import('../../src/stores/consent');
}

beforeEach(() => {
  storage = memoryStorage();
  vi.stubGlobal('localStorage', storage);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('parseConsent', () => {
  it('accepts a recent choice about every consent service', async () => {
    const { parseConsent } = await freshStore();
    const raw = JSON.stringify({ v: 1, choice: 'all', services: ['google-recaptcha'], at: NOW - DAY });
    expect(parseConsent(raw, NOW)).toEqual({ v: 1, choice: 'all', services: ['google-recaptcha'], at: NOW - DAY });
  });

  it.each([
    ['nothing', null],
    ['not JSON', '{'],
    ['another version', JSON.stringify({ v: 2, choice: 'all', services: ['google-recaptcha'], at: NOW })],
    ['an unknown choice', JSON.stringify({ v: 1, choice: 'yes', services: ['google-recaptcha'], at: NOW })],
    ['no services', JSON.stringify({ v: 1, choice: 'all', at: NOW })],
    [
      'a time in the future',
      JSON.stringify({ v: 1, choice: 'all', services: ['google-recaptcha'], at: NOW + 2 * DAY }),
    ],
    [
      'an expired choice',
      JSON.stringify({
        v: 1,
        choice: 'all',
        services: ['google-recaptcha'],
        at: NOW - (CONSENT_MAX_AGE_DAYS + 1) * DAY,
      }),
    ],
  ])('counts %s as no choice', async (_, raw) => {
    const { parseConsent } = await freshStore();
    expect(parseConsent(raw, NOW)).toBeNull();
  });

  it('asks again when a service needing consent was added after the choice', async () => {
    const { parseConsent } = await freshStore();
    const raw = JSON.stringify({ v: 1, choice: 'all', services: ['google-recaptcha'], at: NOW });
    const later = ['google-recaptcha', 'new-service'] as unknown as Parameters<typeof parseConsent>[2];
    expect(parseConsent(raw, NOW, later)).toBeNull();
  });
});

describe('the consent store', () => {
  it('allows reCAPTCHA only after Accept, and keeps the choice in first-party storage', async () => {
    const store = await freshStore();
    expect(store.currentConsent()).toBeNull();
    expect(store.allows('google-recaptcha')).toBe(false);
    expect(storage.length).toBe(0); // nothing stored before the visitor chooses

    store.saveConsent('necessary', NOW);
    expect(store.allows('google-recaptcha')).toBe(false);
    expect(JSON.parse(storage.getItem(store.CONSENT_STORAGE_KEY)!)).toMatchObject({ choice: 'necessary' });

    store.saveConsent('all', Date.now());
    expect(store.allows('google-recaptcha')).toBe(true);
    expect(store.$consent.get()?.choice).toBe('all');
  });

  it('reads the choice back on the next page (a reload)', async () => {
    (await freshStore()).saveConsent('all', Date.now());
    const next = await freshStore();
    expect(next.currentConsent()?.choice).toBe('all');
    expect(next.allows('google-recaptcha')).toBe(true);
  });

  it('treats a tampered value as no choice', async () => {
    storage.setItem('meshfront:consent', JSON.stringify({ v: 1, choice: 'all', services: [], at: Date.now() }));
    const store = await freshStore();
    expect(store.currentConsent()).toBeNull();
    expect(store.allows('google-recaptcha')).toBe(false);
  });

  it('works without storage (blocked by the browser): the choice lives for this page only', async () => {
    vi.stubGlobal('localStorage', undefined);
    const store = await freshStore();
    expect(store.currentConsent()).toBeNull();
    store.saveConsent('all', Date.now());
    expect(store.allows('google-recaptcha')).toBe(true);
  });
});
