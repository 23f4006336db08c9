/** The builds directory on disk: new build ids, the atomic `current` switch, and pruning old builds. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CURRENT_LINK, PUBLISH_MARKER } from './site-switch.ts';
import type { LiveMarker } from './state.ts';

/** Sortable by time: 20261122-161203-042-3fa9c1 (date, time, milliseconds, random). */
export function newBuildId(now = new Date()): string {
  const iso = now.toISOString();
  const stamp = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}`;
  return `${stamp}-${crypto.randomBytes(3).toString('hex')}`;
}

/** When a complete build was published (its marker), for pruning the oldest first. */
function publishedAt(dir: string): number {
  try {
    const t = Date.parse(
      (JSON.parse(fs.readFileSync(path.join(dir, PUBLISH_MARKER), 'utf8')) as { publishedAt?: string }).publishedAt ??
        '',
    );
    return Number.isNaN(t) ? 0 : t;
  } catch {
    return 0;
  }
}

export function writeMarker(dir: string, info: { buildId: string; catalogVersion: number }): void {
  fs.writeFileSync(
    path.join(dir, PUBLISH_MARKER),
    JSON.stringify({ ...info, publishedAt: new Date().toISOString() }, null, 2),
  );
}

/**
 * Point `current` at `buildId`: a new symlink under a temporary name renamed over the old one. rename(2)
 * replaces the link in one step, so a reader sees either the old build or the new one, never neither.
 */
export function switchCurrent(buildsDir: string, buildId: string): void {
  const tmp = path.join(buildsDir, `${CURRENT_LINK}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`);
  fs.symlinkSync(buildId, tmp);
  try {
    fs.renameSync(tmp, path.join(buildsDir, CURRENT_LINK));
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * The live build's marker (its id, catalog version and when it was published), or null when nothing is
 * live or the marker is missing or malformed. It is the record of a publish that did reach the switch.
 */
export function readLiveMarker(buildsDir: string): LiveMarker | null {
  const buildId = currentBuildId(buildsDir);
  if (!buildId) return null;
  try {
    const info = JSON.parse(fs.readFileSync(path.join(buildsDir, buildId, PUBLISH_MARKER), 'utf8')) as Record<
      string,
      unknown
    >;
    const { catalogVersion, publishedAt } = info;
    if (info.buildId !== buildId || !Number.isSafeInteger(catalogVersion) || typeof publishedAt !== 'string')
      return null;
    if (Number.isNaN(Date.parse(publishedAt))) return null;
    return { buildId, catalogVersion: catalogVersion as number, publishedAt };
  } catch {
    return null;
  }
}

export function currentBuildId(buildsDir: string): string | null {
  try {
    return path.basename(fs.readlinkSync(path.join(buildsDir, CURRENT_LINK)));
  } catch {
    return null;
  }
}

/**
 * Keep the `keep` newest complete builds (the live one always among them) and remove unfinished ones
 * left by failed or killed publishes. Called while holding the publish lease, so no build is in progress.
 * Requests still running on a removed build's server code already have it in memory.
 */
export function pruneBuilds(buildsDir: string, keep: number, log: (line: string) => void = () => {}): string[] {
  if (!fs.existsSync(buildsDir)) return [];
  const live = currentBuildId(buildsDir);
  const removed: string[] = [];
  const complete: string[] = [];
  for (const entry of fs.readdirSync(buildsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    if (fs.existsSync(path.join(buildsDir, entry.name, PUBLISH_MARKER))) complete.push(entry.name);
    else if (entry.name !== live) {
      fs.rmSync(path.join(buildsDir, entry.name), { recursive: true, force: true });
      removed.push(entry.name);
    }
  }
  const time = new Map(complete.map((name) => [name, publishedAt(path.join(buildsDir, name))]));
  const ordered = complete.sort((a, b) => time.get(b)! - time.get(a)! || b.localeCompare(a));
  const kept = new Set(ordered.slice(0, keep));
  if (live) kept.add(live);
  for (const name of ordered) {
    if (kept.has(name)) continue;
    fs.rmSync(path.join(buildsDir, name), { recursive: true, force: true });
    removed.push(name);
  }
  if (removed.length) log(`removed old builds: ${removed.join(', ')}`);
  return removed;
}
