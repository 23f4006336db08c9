// Publishing when the database fails: once a run has switched the live build, nothing that fails after it
// takes the site down (the live build stays, its success is recorded when the database is back, or by the
// next status read or publish); a run whose lease is lost — taken over, or not confirmed for too long —
// stops before it switches, with the heartbeat failures in its log. The database "fails" through a stand-in
// for the publisher's handle whose transactions are refused while a test says so; the build is a stand-in
// that writes a tiny complete site.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/connection.ts';
import { getMeta, setMeta } from '../../src/server/db/meta.ts';
import { DatabaseUnavailableError } from '../../src/server/db/unavailable.ts';
import type { SiteBuilder } from '../../src/server/publish/astro-build.ts';
import { Publisher, type PublishResult } from '../../src/server/publish/service.ts';
import { currentPublishedDir } from '../../src/server/publish/site-switch.ts';
import { STATE_KEY, type StoredState } from '../../src/server/publish/state.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';

let t: TestEngine;
let root: string;
let buildsDir: string;

function writeSite(dir: string, name: string) {
  fs.mkdirSync(path.join(dir, 'server'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'client'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'server', 'entry.mjs'), `export const handler = (req, res) => res.end('${name}');\n`);
  fs.writeFileSync(path.join(dir, 'client', 'index.html'), `<!doctype html><title>${name}</title>`);
}

const quickBuilder: SiteBuilder = async (outDir) => writeSite(outDir, path.basename(outDir));

/** The engine's database, with every transaction refused while `down()` says the database is away. */
function flakyDb(down: () => boolean): Database {
  const db = t.engine.database.db;
  return new Proxy(db, {
    get(target, name) {
      if (name === 'transaction')
        return (fn: Parameters<Database['transaction']>[0]) =>
          down()
            ? Promise.reject(new DatabaseUnavailableError('Connection terminated unexpectedly'))
            : target.transaction(fn);
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function publisher(options: {
  db?: Database;
  builder?: SiteBuilder;
  logs?: string[];
  leaseMs?: number;
  recordRetryMs?: number;
}) {
  return new Publisher({
    db: options.db ?? t.engine.database.db,
    settings: { buildsDir, projectDir: root, keepBuilds: 2, buildTimeoutMs: 60_000 },
    builder: options.builder ?? quickBuilder,
    heartbeatMs: 30,
    leaseMs: options.leaseMs,
    recordRetryMs: options.recordRetryMs,
    onLog: (line) => options.logs?.push(line),
  });
}

const liveBuildId = () => {
  const dir = currentPublishedDir(buildsDir);
  return dir ? path.basename(dir) : null;
};

/** The stored state, as a test that plays another process or the passing of time changes it. */
const storedState = async () => (await getMeta<StoredState>(t.engine.database.db, STATE_KEY))!;

beforeAll(async () => {
  t = await startTestEngine({ env: { MESHFRONT_SEED_ON_START: 'false' } });
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-publish-faults-'));
  buildsDir = path.join(root, 'builds');
  const first = await publisher({}).run();
  expect(first.ok).toBe(true);
}, ENGINE_START_TIMEOUT_MS);

afterAll(async () => {
  await t?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
}, ENGINE_START_TIMEOUT_MS);

describe('publish when the database fails', () => {
  it('a database failure right after the switch keeps the new build live and records the run once the database is back', async () => {
    let refusals = 0;
    const before = liveBuildId();
    // Away from the moment `current` points at another build, for three attempts.
    const db = flakyDb(() => {
      if (liveBuildId() !== before && refusals < 3) {
        refusals++;
        return true;
      }
      return false;
    });
    const logs: string[] = [];
    const run = await publisher({ db, logs }).start();
    const result = await run.done;

    // The shop serves the new build: its directory and marker are there.
    expect(liveBuildId()).toBe(run.buildId);
    expect(fs.existsSync(path.join(buildsDir, run.buildId, 'server', 'entry.mjs'))).toBe(true);
    expect(result).toMatchObject({ ok: true, buildId: run.buildId, recorded: true });
    expect(refusals).toBe(3);
    expect(logs.some((l) => l.startsWith('could not record the publish yet'))).toBe(true);
    expect(await publisher({}).status()).toMatchObject({ state: 'idle', lastBuildId: run.buildId, error: null });
  });

  it('a success the database never took is recorded by the next status read and the next publish', async () => {
    const before = liveBuildId();
    const db = flakyDb(() => liveBuildId() !== before);
    const logs: string[] = [];
    const run = await publisher({ db, logs, recordRetryMs: 100 }).start();
    const result = await run.done;
    expect(liveBuildId()).toBe(run.buildId);
    expect(result).toMatchObject({ ok: true, buildId: run.buildId, recorded: false });
    expect(logs.at(-1)).toMatch(
      /^could not record the publish .*is live, and the next publish or status read records it/,
    );

    // The publishing process is gone and its lease ran out (as two minutes later).
    const state = await storedState();
    expect(state).toMatchObject({ status: 'running', buildId: run.buildId });
    const longAgo = new Date(Date.now() - 120_000).toISOString();
    await setMeta(t.engine.database.db, STATE_KEY, { ...state, heartbeatAt: longAgo });
    expect(await publisher({}).status()).toMatchObject({ state: 'idle', lastBuildId: run.buildId, error: null });

    const next = await publisher({}).run();
    expect(next.ok).toBe(true);
    // The next publish recorded the unrecorded one first: it was the live build when the next one began.
    expect(liveBuildId()).toBe((next as Extract<PublishResult, { ok: true }>).buildId);
    expect((await publisher({}).status()).state).toBe('idle');
  });

  it('logs failed heartbeats and stops a run whose lease the database has not confirmed for too long, before it switches', async () => {
    const live = liveBuildId();
    let down = false;
    const db = flakyDb(() => down);
    const logs: string[] = [];
    // A build that goes on to the end whatever happens around it.
    const stubborn: SiteBuilder = async (outDir) => {
      down = true;
      await new Promise((resolve) => setTimeout(resolve, 800));
      writeSite(outDir, 'stubborn');
    };
    const run = await publisher({ db, logs, builder: stubborn, leaseMs: 300 }).start();
    const result = await run.done;
    down = false;

    expect(result.ok).toBe(false);
    expect((result as Extract<PublishResult, { ok: false }>).error).toMatch(
      /^the database did not confirm the publish lease for \d+ s, so another publish may take it over; this publish stopped/,
    );
    expect(logs.filter((l) => l.startsWith('could not renew the publish lease (')).length).toBeGreaterThan(0);
    expect(logs.join('\n')).toMatch(
      /could not renew the publish lease \(DatabaseUnavailableError: Connection terminated/,
    );
    expect(liveBuildId()).toBe(live);
    expect(fs.existsSync(path.join(buildsDir, run.buildId))).toBe(false);
    // Its end could not be recorded either: the state says running until the lease runs out (as later).
    const longAgo = new Date(Date.now() - 120_000).toISOString();
    await setMeta(t.engine.database.db, STATE_KEY, { ...(await storedState()), heartbeatAt: longAgo });
  });

  it('a run whose lease another publish took over never switches the live site', async () => {
    const live = liveBuildId();
    let takenOver!: () => void;
    const taken = new Promise<void>((resolve) => (takenOver = resolve));
    const stubborn: SiteBuilder = async (outDir) => {
      await taken;
      await new Promise((resolve) => setTimeout(resolve, 200));
      writeSite(outDir, 'overtaken');
    };
    const logs: string[] = [];
    const run = await publisher({ builder: stubborn, logs }).start();
    // Another process took the lease over (as after this run's lease had expired).
    await setMeta(t.engine.database.db, STATE_KEY, { ...(await storedState()), runId: 'another-run' });
    takenOver();
    const result = await run.done;

    expect(result).toMatchObject({
      ok: false,
      error: 'another publish took over the publish lease; this publish stopped and the live site was left as it is',
    });
    expect(liveBuildId()).toBe(live);
    expect(fs.existsSync(path.join(buildsDir, run.buildId))).toBe(false);
    // The other run's state is left to it.
    expect((await storedState()).runId).toBe('another-run');
    await setMeta(t.engine.database.db, STATE_KEY, { ...(await storedState()), status: 'idle' });
  });
});
