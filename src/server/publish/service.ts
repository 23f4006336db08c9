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
 * Old builds are pruned. Live data on the pages (price, stock in the islands) comes from the API and is
 * current before any publish; publishing refreshes the prerendered HTML (names, descriptions, listings).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/connection.ts';
import type { Engine } from '../engine/index.ts';
import { astroSiteBuilder, type SiteBuilder } from './astro-build.ts';
import { newBuildId, pruneBuilds, switchCurrent, writeMarker } from './builds.ts';
import { readPublishSettings, type PublishSettings } from './settings.ts';
import { acquireLease, finishRun, heartbeat, readStatus, LOG_TAIL_LINES, type PublishStatus } from './state.ts';

export { PublishBusyError, type PublishStatus } from './state.ts';

export type PublishResult =
  | { ok: true; buildId: string; dir: string; durationMs: number }
  | { ok: false; error: string; logTail: string[] };

export type PublisherOptions = {
  db: Database;
  settings: PublishSettings;
  builder: SiteBuilder;
  /** Every log line as it happens (the CLI prints them): the publisher's own steps, or the site build's output. */
  onLog?: (line: string, source: 'publish' | 'build') => void;
  heartbeatMs?: number;
};

export class Publisher {
  constructor(private readonly options: PublisherOptions) {}

  status(): Promise<PublishStatus> {
    return readStatus(this.options.db);
  }

  /** Take the lock and start building; resolves once the publish is under way (PublishBusyError if one is already running). */
  async start(): Promise<{ runId: string; buildId: string; done: Promise<PublishResult> }> {
    const buildId = newBuildId();
    const { runId, catalogVersion } = await acquireLease(this.options.db, buildId);
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
    const dir = path.join(settings.buildsDir, buildId);
    const abort = new AbortController();
    const timeout = setTimeout(() => abort.abort(), settings.buildTimeoutMs);
    const beat = setInterval(() => {
      heartbeat(db, runId, lines).then(
        (held) => held || abort.abort(),
        () => {},
      );
    }, this.options.heartbeatMs ?? 10_000);
    try {
      fs.mkdirSync(settings.buildsDir, { recursive: true });
      log(`building the site into ${dir} (catalog version ${catalogVersion})`);
      await builder(dir, { log: (line) => log(line, 'build'), signal: abort.signal });
      for (const required of ['server/entry.mjs', 'client/index.html']) {
        if (!fs.existsSync(path.join(dir, required)))
          throw new Error(`the build has no ${required}; the live site was left as it is`);
      }
      writeMarker(dir, { buildId, catalogVersion });
      switchCurrent(settings.buildsDir, buildId);
      log(`published build ${buildId} in ${Math.round((Date.now() - started) / 1000)} s`);
      pruneBuilds(settings.buildsDir, settings.keepBuilds, log);
      await finishRun(db, runId, { ok: true, buildId, catalogVersion }, lines);
      return { ok: true, buildId, dir, durationMs: Date.now() - started };
    } catch (err) {
      const error = (err as Error).message || String(err);
      log(`publish failed: ${error}`);
      fs.rmSync(dir, { recursive: true, force: true });
      await finishRun(db, runId, { ok: false, error }, lines).catch(() => {});
      return { ok: false, error, logTail: lines.slice(-LOG_TAIL_LINES) };
    } finally {
      clearTimeout(timeout);
      clearInterval(beat);
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
