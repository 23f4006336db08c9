/**
 * The publish state, kept in the database so every process (the web server, an admin's CLI, a second
 * API node) sees the same one and only one publish runs at a time:
 *
 *   meta 'publish_state'       who is publishing (a lease renewed by heartbeats), its log tail, the
 *                              outcome of the last run and the last published build
 *   meta 'catalog_stale_since' set by the first catalog change after a publish (db/meta.ts bumpCounter)
 *
 * The lease is taken with SELECT … FOR UPDATE on the state row; a publisher that stops heartbeating
 * (killed, crashed) loses it after LEASE_MS and the next publish may start.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { Database, DbOrTx } from '../db/connection.ts';
import { deleteMeta, getMeta, getMetaRow, initMeta, readCounters, setMeta } from '../db/meta.ts';

export const STATE_KEY = 'publish_state';
export const STALE_KEY = 'catalog_stale_since';
export const LEASE_MS = 90_000;
export const LOG_TAIL_LINES = 60;

export type PublishedBuild = { buildId: string; at: string; catalogVersion: number };

export type StoredState = {
  status: 'idle' | 'running' | 'failed';
  runId: string | null;
  owner: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  heartbeatAt: string | null;
  buildId: string | null;
  /** The catalog version the running (or last) build started from. */
  catalogVersion: number | null;
  error: string | null;
  logTail: string[];
  lastPublished: PublishedBuild | null;
};

const EMPTY: StoredState = {
  status: 'idle',
  runId: null,
  owner: null,
  startedAt: null,
  finishedAt: null,
  heartbeatAt: null,
  buildId: null,
  catalogVersion: null,
  error: null,
  logTail: [],
  lastPublished: null,
};

export class PublishBusyError extends Error {
  override name = 'PublishBusyError';
  constructor(readonly state: StoredState) {
    super(`A publish is already running (started ${state.startedAt} by ${state.owner}); wait for it to finish.`);
  }
}

export async function readState(db: DbOrTx): Promise<StoredState> {
  return { ...EMPTY, ...((await getMeta<Partial<StoredState>>(db, STATE_KEY)) ?? {}) };
}

async function writeState(db: DbOrTx, state: StoredState): Promise<void> {
  await setMeta(db, STATE_KEY, state);
}

export function leaseExpired(state: StoredState, now = Date.now()): boolean {
  return state.status === 'running' && (!state.heartbeatAt || now - Date.parse(state.heartbeatAt) > LEASE_MS);
}

/** Take the publish lease, or throw PublishBusyError when a live publisher holds it. */
export async function acquireLease(db: Database, buildId: string): Promise<{ runId: string; catalogVersion: number }> {
  return db.transaction(async (tx) => {
    await initMeta(tx, STATE_KEY, EMPTY);
    const row = await getMetaRow(tx, STATE_KEY, { forUpdate: true });
    const state: StoredState = { ...EMPTY, ...(row!.value as Partial<StoredState>) };
    if (state.status === 'running' && !leaseExpired(state)) throw new PublishBusyError(state);
    const { catalog_version } = await readCounters(tx, ['catalog_version']);
    const now = new Date().toISOString();
    const runId = crypto.randomUUID();
    await writeState(tx, {
      ...state,
      status: 'running',
      runId,
      owner: `${os.hostname()} pid ${process.pid}`,
      startedAt: now,
      finishedAt: null,
      heartbeatAt: now,
      buildId,
      catalogVersion: catalog_version,
      error: null,
      logTail: [],
    });
    return { runId, catalogVersion: catalog_version };
  });
}

/** Renew the lease and store the log tail; false when this run no longer holds the lease. */
export async function heartbeat(db: Database, runId: string, logTail: string[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await getMetaRow(tx, STATE_KEY, { forUpdate: true });
    const state: StoredState = { ...EMPTY, ...(row?.value as Partial<StoredState>) };
    if (state.runId !== runId || state.status !== 'running') return false;
    await writeState(tx, { ...state, heartbeatAt: new Date().toISOString(), logTail: logTail.slice(-LOG_TAIL_LINES) });
    return true;
  });
}

/** Record the end of a run (only if it still holds the lease). On success the stale marker is settled. */
export async function finishRun(
  db: Database,
  runId: string,
  outcome: { ok: true; buildId: string; catalogVersion: number } | { ok: false; error: string },
  logTail: string[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await getMetaRow(tx, STATE_KEY, { forUpdate: true });
    const state: StoredState = { ...EMPTY, ...(row?.value as Partial<StoredState>) };
    if (state.runId !== runId) return;
    const now = new Date().toISOString();
    const next: StoredState = {
      ...state,
      status: outcome.ok ? 'idle' : 'failed',
      finishedAt: now,
      heartbeatAt: now,
      logTail: logTail.slice(-LOG_TAIL_LINES),
      error: outcome.ok ? null : outcome.error,
    };
    if (outcome.ok) {
      next.lastPublished = { buildId: outcome.buildId, at: now, catalogVersion: outcome.catalogVersion };
      const { catalog_version } = await readCounters(tx, ['catalog_version']);
      if (catalog_version === outcome.catalogVersion) await deleteMeta(tx, STALE_KEY);
      // Changed while building: the new pages may miss those changes, so the site is stale since the build began.
      else await setMeta(tx, STALE_KEY, state.startedAt ?? now);
    }
    await writeState(tx, next);
  });
}

export type PublishStatus = {
  /** idle: nothing running (see lastPublished); running: a build is under way; failed: the last run failed (see error and logTail). */
  state: 'idle' | 'running' | 'failed';
  runId: string | null;
  owner: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  logTail: string[];
  lastPublishedAt: string | null;
  lastBuildId: string | null;
  /** Catalog changes not yet on the static pages. */
  stale: boolean;
  /** When the first of those changes was made. */
  staleSince: string | null;
  catalogVersion: number;
  publishedCatalogVersion: number | null;
};

export async function readStatus(db: Database): Promise<PublishStatus> {
  const [state, counters, staleRow] = await Promise.all([
    readState(db),
    readCounters(db, ['catalog_version']),
    getMetaRow(db, STALE_KEY),
  ]);
  const expired = leaseExpired(state);
  const published = state.lastPublished;
  const stale = !published || published.catalogVersion !== counters.catalog_version;
  const staleValue = staleRow?.value;
  return {
    state: expired ? 'failed' : state.status,
    runId: state.runId,
    owner: state.owner,
    startedAt: state.startedAt,
    finishedAt: state.finishedAt,
    error: expired ? `the publishing process (${state.owner}) stopped answering; publish again` : state.error,
    logTail: state.logTail,
    lastPublishedAt: published?.at ?? null,
    lastBuildId: published?.buildId ?? null,
    stale,
    staleSince: stale
      ? typeof staleValue === 'string'
        ? staleValue
        : (staleRow?.updatedAt.toISOString() ?? null)
      : null,
    catalogVersion: counters.catalog_version,
    publishedCatalogVersion: published?.catalogVersion ?? null,
  };
}
