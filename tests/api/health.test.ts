// /health and /ready (src/server/http/health.ts) on the site server (scripts/serve.mjs) and for an
// engine: liveness never touches the database; readiness asks it with a short limit and checks the
// migrations. JSON, Cache-Control: no-store, nothing about customers. The PostgreSQL outage case (503
// while the database is down, 200 again when it is back, on `npm run api`) is in faults-postgres.test.ts.
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readinessOf, readyResponse } from '../../src/server/http/health.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
});

describe('readiness of an engine', () => {
  it('ready: the database answers and every migration is applied', async () => {
    const r = await readyResponse(async () => t.engine);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'current' });
  });

  it('not ready while the engine cannot start, or when the database does not answer in time', async () => {
    const failing = await readyResponse(async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    expect(failing.status).toBe(503);
    expect(await failing.json()).toEqual({ status: 'not ready', database: 'unavailable', migrations: 'unknown' });
    const started = Date.now();
    const slow = await readinessOf(() => new Promise(() => {}), 200);
    expect(slow).toMatchObject({ status: 'not ready', database: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('site server (scripts/serve.mjs)', () => {
  let server: http.Server;
  let port: number;
  let dist: string;
  const seen: string[] = [];

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-health-'));
    fs.mkdirSync(path.join(dist, 'client'), { recursive: true });
    const { createSiteServer } = await import('../../scripts/serve.mjs');
    // Stands in for Astro's handler: /api/ready as src/pages/api/ready.ts answers it.
    const handler = async (req: http.IncomingMessage, res: http.ServerResponse) => {
      seen.push(req.url ?? '');
      const answer = await readyResponse(async () => t.engine);
      res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
    };
    server = await createSiteServer({ distDir: dist, handler, env: {} });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('GET /health: 200 JSON, no-store, answered without the Astro handler', async () => {
    const r = await fetch(`http://127.0.0.1:${port}/health`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await r.json()).toEqual({ status: 'ok' });
    expect(seen).toEqual([]);
    const head = await fetch(`http://127.0.0.1:${port}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('GET /ready: answered by the server bundle route /api/ready, on its engine', async () => {
    const r = await fetch(`http://127.0.0.1:${port}/ready`, { headers: { 'accept-language': 'de' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'current' });
    expect(seen).toEqual(['/api/ready']);
  });
});
