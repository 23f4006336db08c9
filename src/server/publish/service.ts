/**
 * Publishing the static site: rebuild it into a new directory and switch the server to it atomically.
 *
 *   const publisher = createPublisher(engine);
 *   await publisher.status();          // idle | running | failed, log tail, last published at, stale since
 *   const { runId } = await publisher.start();   // returns at once; the build runs in the background
 *   await publisher.run();             // the same, waiting for the end (CLI)
 *
 * Only one publish runs at a time across all processes (a lease in the database, see state.ts). A build
 * goes to <builds dir>/<id>/; only when it finished and looks complete is `current` switched to it (see
 * site-switch.ts for how the server follows). A failed build is deleted and the live site is untouched.
 * Once `current` is switched the run has published, whatever fails after it: the live build is never
 * deleted, and a success the database could not take is recorded later (state.ts settleUnrecordedRun).
 * A run that loses its lease (lease.ts) stops before the switch, so two publishers never both switch.
 * Old builds are pruned. Live data on the pages (price, stock in the islands) comes from the API and is
 * current before any publish; publishing refreshes the prerendered HTML (names, descriptions, listings).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/connection.ts';
import type { Engine } from '../engine/index.ts';
import { astroSiteBuilder, type SiteBuilder } from './astro-build.ts';
import { errorSummary } from '../error-summary.ts';
import { currentBuildId, newBuildId, pruneBuilds, readLiveMarker, switchCurrent, writeMarker } from './builds.ts';
import { LeaseKeeper } from './lease.ts';
import { readPublishSettings, type PublishSettings } from './settings.ts';
import { acquireLease, finishRun, LEASE_MS, LOG_TAIL_LINES, readStatus, type PublishStatus } from './state.ts';

export { PublishBusyError, type PublishStatus } from './state.ts';

export type PublishResult =
  /** `recorded`: false when the database did not take the outcome (the build is live all the same). */
  | { ok: true; buildId: string; dir: string; durationMs: number; recorded: boolean }
  | { ok: false; error: string; logTail: string[] };

export type PublisherOptions = {
  db: Database;
  settings: PublishSettings;
  builder: SiteBuilder;
  /** Every log line as it happens (the CLI prints them): the publisher's own steps, or the site build's output. */
  onLog?: (line: string, source: 'publish' | 'build') => void;
  heartbeatMs?: number;
  /** How long the lease lasts without a heartbeat (LEASE_MS); the run stops after two thirds of it unconfirmed. */
  leaseMs?: number;
  /** How long a published run keeps trying to record its success while the database is away (LEASE_MS). */
  recordRetryMs?: number;
};

export class Publisher {
  constructor(private readonly options: PublisherOptions) {}

  status(): Promise<PublishStatus> {
    return readStatus(this.options.db, readLiveMarker(this.options.settings.buildsDir));
  }

  /** Take the lock and start building; resolves once the publish is under way (PublishBusyError if one is already running). */
  async start(): Promise<{ runId: string; buildId: string; done: Promise<PublishResult> }> {
    const buildId = newBuildId();
    const live = readLiveMarker(this.options.settings.buildsDir);
    const { runId, catalogVersion } = await acquireLease(this.options.db, buildId, live);
    const done = this.build(runId, buildId, catalogVersion);
    return { runId, buildId, done };
  }

  /** Publish and wait for the outcome. */
  async run(): Promise<PublishResult> {
    return (await this.start()).done;
  }

  private async build(runId: string, buildId: string, catalogVersion: number): Promise<PublishResult> {
    const { db, settings, builder } = this.options;
    const started = Date.now();
    const lines: string[] = [];
    const log = (line: string, source: 'publish' | 'build' = 'publish') => {
      lines.push(line);
      if (lines.length > LOG_TAIL_LINES * 4) lines.splice(0, lines.length - LOG_TAIL_LINES * 2);
      this.options.onLog?.(line, source);
    };
    // Trouble with the database is also worth the server log when nobody follows the run's own log.
    const warn = (line: string) => {
      log(line);
      if (!this.options.onLog) console.error(`[meshfront] publish ${buildId}: ${line}`);
    };
    const dir = path.join(settings.buildsDir, buildId);
    const abort = new AbortController();
    const timeout = setTimeout(
      () => abort.abort(new Error('the build took too long and was stopped')),
      settings.buildTimeoutMs,
    );
    const lease = new LeaseKeeper({
      db,
      runId,
      logTail: () => lines,
      log: warn,
      onLost: (error) => abort.abort(error),
      heartbeatMs: this.options.heartbeatMs ?? 10_000,
      leaseMs: this.options.leaseMs,
    });
    lease.start();
    try {
      try {
        fs.mkdirSync(settings.buildsDir, { recursive: true });
        log(`building the site into ${dir} (catalog version ${catalogVersion})`);
        await builder(dir, { log: (line) => log(line, 'build'), signal: abort.signal });
        // A builder that finished anyway after the lease was lost or the time ran out is not published.
        if (abort.signal.aborted) throw abort.signal.reason;
        for (const required of ['server/entry.mjs', 'client/index.html']) {
          if (!fs.existsSync(path.join(dir, required)))
            throw new Error(`the build has no ${required}; the live site was left as it is`);
        }
        writeMarker(dir, { buildId, catalogVersion });
        // Renewed right before the switch: no other publish can switch or prune for a whole lease from here.
        await lease.confirm();
        switchCurrent(settings.buildsDir, buildId);
      } catch (err) {
        const error = (err as Error).message || String(err);
        log(`publish failed: ${error}`);
        // Never the live build (a run cut short after it switched must not take the site down with it).
        if (currentBuildId(settings.buildsDir) !== buildId) fs.rmSync(dir, { recursive: true, force: true });
        await finishRun(db, runId, { ok: false, error }, lines).catch((recordErr: unknown) =>
          warn(`could not record the failed publish (${errorSummary(recordErr)})`),
        );
        return { ok: false, error, logTail: lines.slice(-LOG_TAIL_LINES) };
      }
      // From here on the build is live: nothing that fails below may undo that.
      log(`published build ${buildId} in ${Math.round((Date.now() - started) / 1000)} s`);
      try {
        pruneBuilds(settings.buildsDir, settings.keepBuilds, log);
      } catch (err) {
        warn(`could not remove old builds (${errorSummary(err)}); the next publish tries again`);
      }
      lease.stop();
      const recorded = await this.record(runId, { ok: true, buildId, catalogVersion }, lines, warn);
      return { ok: true, buildId, dir, durationMs: Date.now() - started, recorded };
    } finally {
      clearTimeout(timeout);
      lease.stop();
    }
  }

  /**
   * Record a published run's success, retrying while the database is away (for up to `recordRetryMs`).
   * When it stays away, the record is left to the next status read or publish: the live build's marker
   * says what was published (state.ts settleUnrecordedRun).
   */
  private async record(
    runId: string,
    outcome: { ok: true; buildId: string; catalogVersion: number },
    lines: string[],
    warn: (line: string) => void,
  ): Promise<boolean> {
    const deadline = Date.now() + (this.options.recordRetryMs ?? LEASE_MS);
    for (let attempt = 1, delay = 250; ; attempt++, delay = Math.min(delay * 2, 5_000)) {
      try {
        await finishRun(this.options.db, runId, outcome, lines);
        if (attempt > 1) warn(`the publish is recorded (attempt ${attempt})`);
        return true;
      } catch (err) {
        if (Date.now() + delay > deadline) {
          warn(
            `could not record the publish (${errorSummary(err)}); build ${outcome.buildId} is live, and the next publish or status read records it`,
          );
          return false;
        }
        if (attempt === 1) warn(`could not record the publish yet (${errorSummary(err)}); trying again`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}

/** The publisher for an engine: builds with Astro in MESHFRONT_PROJECT_DIR into MESHFRONT_BUILDS_DIR. */
export function createPublisher(
  engine: Engine,
  options: { onLog?: PublisherOptions['onLog']; builder?: SiteBuilder; env?: Record<string, string | undefined> } = {},
): Publisher {
  const config: ServerConfig = engine.config;
  const settings = readPublishSettings(config, options.env);
  const builder =
    options.builder ??
    astroSiteBuilder({
      engine,
      config,
      projectDir: settings.projectDir,
      cacheDir: path.join(settings.buildsDir, '.astro-cache'),
    });
  return new Publisher({ db: engine.database.db, settings, builder, onLog: options.onLog });
}
