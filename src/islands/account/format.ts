/**
 * How the account area shows dates, download counts and expiry. Pure; tests/unit/account-format.test.ts.
 */

/** A date (ISO 8601 from the engine) in the page's language, or null when missing or unreadable. */
export function formatDate(iso: string | null | undefined, lang: string): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  try {
    return new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(
      date,
    );
  } catch {
    return date.toISOString().slice(0, 10);
  }
}

export type DownloadState = 'available' | 'exhausted' | 'expired';

/** Whether a download can still be used: WooCommerce's rules (null remaining = unlimited, null expiry = never). */
export function downloadState(
  item: { downloadsRemaining: number | null; accessExpires: string | null },
  nowMs: number,
): DownloadState {
  if (item.accessExpires) {
    const expires = new Date(item.accessExpires).getTime();
    if (!Number.isNaN(expires) && expires <= nowMs) return 'expired';
  }
  if (item.downloadsRemaining !== null && item.downloadsRemaining <= 0) return 'exhausted';
  return 'available';
}

/** The remaining-downloads cell: a locale key and its parameters. */
export function remainingLabel(remaining: number | null): { key: string; params?: Record<string, number> } {
  if (remaining === null) return { key: 'account.downloads.unlimited' };
  return { key: 'account.downloads.remainingCount', params: { count: Math.max(0, remaining) } };
}
