/**
 * Gives memory back to the operating system once a busy spell is over, for the site server
 * (scripts/serve.mjs) and the standalone API (src/server/http/standalone.ts).
 *
 * V8 keeps the heap pages a load made it grow into after garbage collection has emptied them: it pools
 * them for reuse and hands them back only when it is told memory is short, which nothing on a server
 * ever tells it. Measured on the engine (1,000 products): after 20 s of addToCart at 50 connections the
 * process held ~560 MB resident while its heap held 60 MB live; ~300 MB of it were emptied 256 KB heap
 * pages, and they stayed for as long as the process ran. One memory-reducing full collection (V8's "last
 * resort" collection, 80–180 ms here) returned them: 560 → 240 MB.
 *
 * So every MEMORY_RELEASE_CHECK_MS the process looks at itself; when it has been quiet since the last
 * look (its event loop busy less than MEMORY_RELEASE_IDLE_UTILIZATION of the time) and its resident memory
 * grew by at least MEMORY_RELEASE_MB since the last release, it runs that collection. It never runs while
 * requests keep the process busy, where its pause would be added to them. MEMORY_RELEASE_MB=0 turns it off.
 *
 * Imported by scripts/serve.mjs with Node's type stripping: keep to erasable TypeScript.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

export type MemoryReleaseSettings = {
  /** Resident growth since the last release that is worth a release (bytes; 0 = never release). */
  minGrowthBytes: number;
  /** How often the process looks at itself (ms). */
  checkMs: number;
  /** The event loop's busy share below which the last interval counts as quiet (0–1). */
  idleUtilization: number;
};

export function readMemoryReleaseSettings(
  env: Record<string, string | undefined> = process.env,
): MemoryReleaseSettings {
  const number = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max)
      throw new Error(`${name} must be a number from ${min} to ${max}, got "${raw}".`);
    return value;
  };
  return {
    minGrowthBytes: Math.round(number('MEMORY_RELEASE_MB', 64, 0, 1_000_000) * 1024 * 1024),
    checkMs: Math.round(number('MEMORY_RELEASE_CHECK_MS', 5000, 100, 3_600_000)),
    idleUtilization: number('MEMORY_RELEASE_IDLE_UTILIZATION', 0.05, 0, 1),
  };
}

/** What the decision reads and does; the process's own by default (tests hand in their own). */
export type MemoryReleaseProbe = {
  residentBytes(): number;
  /** The event loop's busy share since the previous call (0–1). */
  busyShare(): number;
  /** The memory-reducing full collection. */
  release(): void;
};

/** V8's collector, reached without exposing `gc` to the application's global scope. */
function lastResortCollection(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (options: { type: string; execution: string; flavor: string }) => void;
  v8.setFlagsFromString('--no-expose-gc');
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

function processProbe(): MemoryReleaseProbe {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return {
    residentBytes: () => process.memoryUsage.rss(),
    busyShare: () => {
      const now = performance.eventLoopUtilization();
      const share = performance.eventLoopUtilization(now, last).utilization;
      last = now;
      return share;
    },
    release: lastResortCollection(),
  };
}

/**
 * The decision, one look at a time: returns true when it released. `baseline` is the resident size
 * right after the last release (nothing before the first), or the lowest seen since.
 */
export class MemoryRelease {
  private readonly settings: MemoryReleaseSettings;
  private readonly probe: MemoryReleaseProbe;
  private readonly log: (message: string) => void;
  private baseline: number;
  releases = 0;

  constructor(settings: MemoryReleaseSettings, probe: MemoryReleaseProbe, log: (message: string) => void = () => {}) {
    this.settings = settings;
    this.probe = probe;
    this.log = log;
    // Starting grows the heap too (migrations, the catalog snapshot, compiling): counted from nothing, the
    // first quiet look after the start releases what that left.
    this.baseline = 0;
  }

  check(): boolean {
    const quiet = this.probe.busyShare() < this.settings.idleUtilization;
    const resident = this.probe.residentBytes();
    // Resident memory that shrank by itself lowers the mark: growth is counted from the lowest point seen.
    if (resident < this.baseline) this.baseline = resident;
    if (!quiet || this.settings.minGrowthBytes <= 0 || resident - this.baseline < this.settings.minGrowthBytes)
      return false;
    const started = performance.now();
    this.probe.release();
    const after = this.probe.residentBytes();
    this.baseline = after;
    this.releases++;
    const mb = (bytes: number) => Math.round(bytes / 1048576);
    this.log(
      `released memory after a busy spell: resident ${mb(resident)} → ${mb(after)} MB (${Math.round(performance.now() - started)} ms)`,
    );
    return true;
  }
}

/** Starts the looks for this process; the returned function stops them. */
export function startMemoryRelease(
  settings: MemoryReleaseSettings = readMemoryReleaseSettings(),
  log: (message: string) => void = (m) => console.log(`[meshfront] ${m}`),
): () => void {
  if (settings.minGrowthBytes <= 0) return () => {};
  const release = new MemoryRelease(settings, processProbe(), log);
  const timer = setInterval(() => release.check(), settings.checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
