/** The headings PrivacyTables.astro adds to the policy pages, for their "On this page" lists. */
export const PRIVACY_TABLES = {
  cookies: { slug: 'cookies-and-storage-in-detail', key: 'privacy.table.cookiesHeading' },
  'privacy-policy': { slug: 'services-that-receive-personal-data', key: 'privacy.table.processorsHeading' },
} as const;

export type PrivacyTableKind = keyof typeof PRIVACY_TABLES;

/** Which table a policy shows, by its slug; null for the other policies. */
export function privacyTableFor(slug: string): PrivacyTableKind | null {
  return slug in PRIVACY_TABLES ? (slug as PrivacyTableKind) : null;
}
