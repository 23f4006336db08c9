/**
 * The visitor's privacy choice: whether the third-party services that need consent (CONSENT_SERVICES in
 * src/lib/privacy/consent-services.ts: Google reCAPTCHA) may run. Kept first-party in
 * localStorage under `meshfront:consent` — storing the choice itself is strictly necessary, and it never
 * leaves the browser. Nothing is stored until the visitor chooses.
 *
 * A choice counts only while it is younger than CONSENT_MAX_AGE_DAYS and was made about every service
 * that now needs consent: a service added later is asked about again instead of being covered by an old
 * "Accept". An unreadable or tampered value counts as no choice (nothing third-party runs).
 */
import { atom } from 'nanostores';
import {
  CONSENT_MAX_AGE_DAYS,
  CONSENT_SERVICES,
  type ConsentService as ProcessorId,
} from '../lib/privacy/consent-services';
import { readLocal, writeLocal } from './browser-storage';

export const CONSENT_STORAGE_KEY = 'meshfront:consent';

export type ConsentChoice = 'all' | 'necessary';

export interface ConsentRecord {
  v: 1;
  choice: ConsentChoice;
  /** The services the visitor was asked about. */
  services: ProcessorId[];
  /** When the choice was made (ms since epoch). */
  at: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The stored choice, or null when there is none that still counts. */
export function parseConsent(
  raw: string | null,
  now: number,
  required: readonly ProcessorId[] = CONSENT_SERVICES,
): ConsentRecord | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const r = value as Partial<ConsentRecord>;
  if (r.v !== 1 || (r.choice !== 'all' && r.choice !== 'necessary')) return null;
  if (!Array.isArray(r.services) || !r.services.every((s) => typeof s === 'string')) return null;
  if (typeof r.at !== 'number' || !Number.isFinite(r.at) || r.at > now + DAY_MS) return null;
  if (now - r.at > CONSENT_MAX_AGE_DAYS * DAY_MS) return null;
  if (!required.every((s) => r.services!.includes(s))) return null;
  return { v: 1, choice: r.choice, services: [...r.services] as ProcessorId[], at: r.at };
}

/** The choice as this page knows it; read from storage on first use. */
export const $consent = atom<ConsentRecord | null>(null);
let loaded = false;

export function currentConsent(): ConsentRecord | null {
  if (!loaded) {
    loaded = true;
    $consent.set(parseConsent(readLocal(CONSENT_STORAGE_KEY), Date.now()));
  }
  return $consent.get();
}

/** Stores the visitor's choice (about every service that needs consent today). */
export function saveConsent(choice: ConsentChoice, now = Date.now()): ConsentRecord {
  const record: ConsentRecord = { v: 1, choice, services: [...CONSENT_SERVICES], at: now };
  loaded = true;
  writeLocal(CONSENT_STORAGE_KEY, JSON.stringify(record));
  $consent.set(record);
  return record;
}

/** Whether a service may run: only when it does not need consent, or the visitor accepted it. */
export function allows(service: ProcessorId): boolean {
  const record = currentConsent();
  return record?.choice === 'all' && record.services.includes(service);
}
