/**
 * Keeps long-open tabs in step with deployments.
 * - Hourly, fetch /latest-build.json?t=<now>; when its id differs from the id this page was built
 *   with, the next link followed is loaded as a full document from the network, and a page restored
 *   from the back-forward cache is reloaded instead of being shown stale.
 * - A failed chunk/module load (old hashed files gone after a deploy) reloads the page once;
 *   a second failure within 10 s is left alone so a broken deploy cannot cause a reload loop.
 */
export const CHECK_INTERVAL = 60 * 60 * 1000;
export const RELOAD_GUARD_MS = 10_000;
const RELOAD_KEY = 'meshfront:chunk-reload-at';

export async function fetchLatestBuildId(now = Date.now()): Promise<string | null> {
  try {
    const res = await fetch(`/latest-build.json?t=${now}`, { cache: 'no-store' });
    if (!res.ok) return null;
    const body = (await res.json()) as { id?: unknown };
    return typeof body.id === 'string' ? body.id : null;
  } catch {
    return null;
  }
}

/** Reload at `target` unless we already did within RELOAD_GUARD_MS. Returns whether it reloads. */
export function reloadOnce(target: string, storage: Storage = sessionStorage, now = Date.now()): boolean {
  const last = Number(storage.getItem(RELOAD_KEY) ?? 0);
  if (now - last < RELOAD_GUARD_MS) return false;
  storage.setItem(RELOAD_KEY, String(now));
  window.location.assign(target);
  return true;
}

export function isChunkLoadError(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : String(reason ?? '');
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}
