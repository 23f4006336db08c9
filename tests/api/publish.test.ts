// Publishing: a publish builds into a new directory while the server keeps answering from the live build,
// then the server switches to the new build; a failed build leaves the live one as it was; only one publish
// runs at a time (a lease in the database, so two publishers that share nothing but the database exclude
// each other); catalog changes mark the static pages stale until the next publish. The build here is a
// stand-in that writes a tiny site (a server entry that names its build), so the test needs no Astro build.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpCounter } from '../../src/server/db/meta.ts';
import { Publisher, PublishBusyError } from '../../src/server/publish/service.ts';
import type { SiteBuilder } from '../../src/server/publish/astro-build.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';

let t: TestEngine;
let root: string;
let buildsDir: string;
let distDir: string;
let server: http.Server & { builds: { settled(): Promise<unknown> } };
let port: number;

/** A tiny complete site whose every answer is `name`. */
function writeSite(dir: string, name: string, builtAt: string) {
  fs.mkdirSync(path.join(dir, 'server'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'client'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'server', 'entry.mjs'),
    `export const handler = (req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end(${JSON.stringify(name)}); };\n`,
  );
  fs.writeFileSync(path.join(dir, 'client', 'index.html'), `<!doctype html><title>${name}</title>`);
  fs.writeFileSync(path.join(dir, 'client', 'latest-build.json'), JSON.stringify({ id: name, builtAt }));
}

/** A build that writes its server entry first, then waits for `release` before finishing the client side. */
function gatedBuilder(name: string, options: { fail?: boolean } = {}) {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const begun = new Promise<void>((r) => (started = r));
  const builder: SiteBuilder = async (outDir, { log }) => {
    fs.mkdirSync(path.join(outDir, 'server'), { recursive: true });
    fs.writeFileSync(
      path.join(outDir, 'server', 'entry.mjs'),
      `export const handler = (req, res) => res.end('half-built');\n`,
    );
    log(`building ${name}`);
    started();
    await gate;
    if (options.fail) {
      log('error: a page failed to render');
      throw new Error('astro build failed (exit code 1)');
    }
    writeSite(outDir, name, new Date().toISOString());
  };
  return { builder, release, begun };
}

const publisher = (builder: SiteBuilder, keepBuilds = 2) =>
  new Publisher({
    db: t.engine.database.db,
    settings: { buildsDir, projectDir: root, keepBuilds, buildTimeoutMs: 60_000 },
    builder,
    heartbeatMs: 50,
  });

function get(): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/api/which-build', headers: { accept: 'text/plain' } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  t = await startTestEngine({ env: { MESHFRONT_SEED_ON_START: 'false' } });
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-publish-'));
  buildsDir = path.join(root, 'builds');
  distDir = path.join(root, 'dist');
  writeSite(distDir, 'deployed dist', '2026-01-01T00:00:00.000Z');
  const { createSiteServer } = await import('../../scripts/serve.mjs');
  server = (await createSiteServer({ distDir, buildsDir, env: {} })) as typeof server;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
}, ENGINE_START_TIMEOUT_MS);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await t?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
}, ENGINE_START_TIMEOUT_MS);

describe('publish', () => {
  it('serves the deployed build before anything is published, and reports the pages as never published', async () => {
    expect(await get()).toBe('deployed dist');
    const status = await publisher(gatedBuilder('x').builder).status();
    expect(status).toMatchObject({ state: 'idle', lastPublishedAt: null, stale: true });
  });

  it('keeps answering from the live build while a publish runs, then switches to the new build', async () => {
    const first = gatedBuilder('build one');
    const run = await publisher(first.builder).start();
    await first.begun;
    // Half-written: the new directory has a server entry already, but it is never served.
    expect(fs.existsSync(path.join(buildsDir, run.buildId, 'server', 'entry.mjs'))).toBe(true);
    expect(await get()).toBe('deployed dist');
    const during = await publisher(first.builder).status();
    expect(during).toMatchObject({ state: 'running', runId: run.runId });
    await expect.poll(async () => (await publisher(first.builder).status()).logTail).toContain('building build one');

    first.release();
    const result = await run.done;
    expect(result).toMatchObject({ ok: true, buildId: run.buildId });
    await server.builds.settled();
    expect(await get()).toBe('build one');
    expect(fs.readlinkSync(path.join(buildsDir, 'current'))).toBe(run.buildId);
    const after = await publisher(first.builder).status();
    expect(after).toMatchObject({
      state: 'idle',
      lastBuildId: run.buildId,
      stale: false,
      staleSince: null,
      error: null,
    });
    expect(after.lastPublishedAt).not.toBeNull();
  });

  it('lets only one publish run at a time, even from a publisher that shares nothing but the database', async () => {
    const slow = gatedBuilder('build two');
    const run = await publisher(slow.builder).start();
    await slow.begun;
    await expect(publisher(gatedBuilder('intruder').builder).start()).rejects.toBeInstanceOf(PublishBusyError);
    slow.release();
    expect((await run.done).ok).toBe(true);
    await server.builds.settled();
    expect(await get()).toBe('build two');
  });

  it('marks the pages stale at the first catalog change after a publish', async () => {
    const before = Date.now();
    await t.engine.database.db.transaction((tx) => bumpCounter(tx, 'catalog_version'));
    await t.engine.database.db.transaction((tx) => bumpCounter(tx, 'catalog_version'));
    const s = await publisher(gatedBuilder('x').builder).status();
    expect(s.stale).toBe(true);
    expect(Date.parse(s.staleSince!)).toBeGreaterThanOrEqual(before - 1000);
    expect(s.catalogVersion).toBe(s.publishedCatalogVersion! + 2);
  });

  it('a failed build leaves the live site as it was, removes its directory and reports the error with the log', async () => {
    const broken = gatedBuilder('broken', { fail: true });
    const run = await publisher(broken.builder).start();
    await broken.begun;
    broken.release();
    const result = await run.done;
    expect(result).toMatchObject({ ok: false, error: 'astro build failed (exit code 1)' });
    expect(fs.existsSync(path.join(buildsDir, run.buildId))).toBe(false);
    await server.builds.settled();
    expect(await get()).toBe('build two');
    const s = await publisher(broken.builder).status();
    expect(s).toMatchObject({ state: 'failed', error: 'astro build failed (exit code 1)', stale: true });
    expect(s.logTail).toEqual(
      expect.arrayContaining(['error: a page failed to render', 'publish failed: astro build failed (exit code 1)']),
    );
  });

  it('the next publish succeeds, clears the stale mark and prunes builds beyond the ones kept', async () => {
    const previous = fs.readlinkSync(path.join(buildsDir, 'current'));
    const next = gatedBuilder('build three');
    const run = await publisher(next.builder, 1).start();
    next.release();
    expect((await run.done).ok).toBe(true);
    await server.builds.settled();
    expect(await get()).toBe('build three');
    expect(fs.existsSync(path.join(buildsDir, previous))).toBe(false);
    expect(fs.readdirSync(buildsDir).filter((n) => !n.startsWith('.') && n !== 'current')).toEqual([run.buildId]);
    expect(await publisher(next.builder).status()).toMatchObject({
      state: 'idle',
      stale: false,
      lastBuildId: run.buildId,
    });
  });
});
