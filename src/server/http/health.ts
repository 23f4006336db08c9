/**
 * Probes for load balancers and orchestrators, on both servers (scripts/serve.mjs, http/standalone.ts):
 *
 *   GET /health  liveness: the process answers. 200 {"status":"ok"} without touching the database, so a
 *                database outage never gets healthy processes restarted.
 *   GET /ready   readiness: the database answers a statement within READY_TIMEOUT_MS and every migration
 *                this code knows is applied. 200 {"status":"ready", …} or 503 {"status":"not ready", …}
 *                naming what is wrong ("database": "unavailable" | "starting", "migrations": "pending").
 *                An embedded database whose disk is full or read-only is still ready (pages and catalog
 *                reads are served; changes are refused with their own message): "storage": "read-only".
 *
 * JSON, Cache-Control: no-store, nothing about customers or the configuration. HEAD is answered too.
 * scripts/serve.mjs imports this module with Node's type stripping (erasable TypeScript only, siblings
 * with their .ts extension, the engine as a type): the site server's readiness is answered inside the
 * Astro server bundle (src/pages/api/ready.ts, also reachable as /api/ready), on the engine the pages use.
 *
 * Settings: READY_TIMEOUT_MS (default 2000), how long /ready waits for the database.
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import type { Engine } from '../engine/index.ts';
import { migrationsDir } from '../db/migrate.ts';
import { databaseFault } from '../db/unavailable.ts';
import { selectRows } from '../db/raw-rows.ts';

const HEALTH_PATH = '/health';
const READY_PATH = '/ready';

type Readiness = {
  status: 'ready' | 'not ready';
  database: 'ok' | 'unavailable' | 'starting';
  migrations: 'current' | 'pending' | 'unknown';
  storage?: 'read-only';
};

const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

function readyTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env.READY_TIMEOUT_MS;
  if (raw === undefined || raw === '') return 2_000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 100 || value > 60_000)
    throw new Error(
      'Invalid health settings:\n  READY_TIMEOUT_MS: must be a whole number of milliseconds, 100 to 60000',
    );
  return value;
}

let knownMigrations: string[] | null = null;

/** The migrations this code brings (as db/migrate.ts applies them), read once. */
function migrationFiles(): string[] {
  knownMigrations ??= fs.readdirSync(migrationsDir()).filter((f) => /^\d{4}_.*\.sql$/.test(f));
  return knownMigrations;
}

/** Resolves `work`, or `fallback` when it takes longer than `ms` (the work goes on; its outcome is dropped). */
function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The readiness of an engine (or of one still starting: `engine` pending or failed). */
export async function readinessOf(engine: () => Promise<Engine>, timeoutMs = readyTimeoutMs()): Promise<Readiness> {
  const unknown: Readiness = { status: 'not ready', database: 'starting', migrations: 'unknown' };
  const check = async (): Promise<Readiness> => {
    let e: Engine;
    try {
      e = await engine();
    } catch (err) {
      return { ...unknown, database: databaseFault(err) ? 'unavailable' : 'starting' };
    }
    try {
      const rows = await selectRows<{ name: string }>(e.database.db, sql`select name from schema_migrations`);
      const applied = new Set(rows.map((row) => row.name));
      const current = migrationFiles().every((file) => applied.has(file));
      const storage = e.database.storageState?.() === 'read-only' ? { storage: 'read-only' as const } : {};
      return current
        ? { status: 'ready', database: 'ok', migrations: 'current', ...storage }
        : { status: 'not ready', database: 'ok', migrations: 'pending', ...storage };
    } catch {
      return { ...unknown, database: 'unavailable' };
    }
  };
  return within(check(), timeoutMs, { ...unknown, database: 'unavailable' });
}

/** The /health answer. */
export function healthResponse(): Response {
  return new Response(JSON.stringify({ status: 'ok' }), { status: 200, headers: HEADERS });
}

/** The /ready answer for an engine. */
export async function readyResponse(engine: () => Promise<Engine>): Promise<Response> {
  const readiness = await readinessOf(engine);
  return new Response(JSON.stringify(readiness), {
    status: readiness.status === 'ready' ? 200 : 503,
    headers: HEADERS,
  });
}

const isProbe = (req: IncomingMessage) => req.method === 'GET' || req.method === 'HEAD';

async function send(req: IncomingMessage, res: ServerResponse, answer: Response): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(answer.status, headers);
  res.end(req.method === 'HEAD' ? undefined : await answer.text());
}

/**
 * Answers /health and /ready on node:http; true when the request was one of them. `ready` answers
 * /ready (the engine's readiness, or the site server handing it to the Astro bundle).
 */
export async function answerHealth(
  req: IncomingMessage,
  res: ServerResponse,
  ready: (req: IncomingMessage, res: ServerResponse) => Promise<unknown> | unknown,
): Promise<boolean> {
  const pathname = (req.url ?? '/').split('?', 1)[0];
  if (pathname === HEALTH_PATH && isProbe(req)) {
    await send(req, res, healthResponse());
    return true;
  }
  if (pathname === READY_PATH && isProbe(req)) {
    await ready(req, res);
    return true;
  }
  return false;
}

/**
 * `answerHealth`'s `ready` for the site server: the request goes to the Astro server bundle's route
 * (src/pages/api/ready.ts), whose engine is the one the pages use.
 */
export function readyRoute(handler: (req: IncomingMessage, res: ServerResponse) => unknown) {
  return (req: IncomingMessage, res: ServerResponse) => {
    req.url = '/api/ready';
    return handler(req, res);
  };
}

/** `answerHealth`'s `ready` for a process that holds its engine itself (npm run api). */
export function engineReady(engine: () => Promise<Engine>) {
  return async (req: IncomingMessage, res: ServerResponse) => send(req, res, await readyResponse(engine));
}
