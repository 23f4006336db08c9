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
 *
 * A run can switch the live build and then fail to record that (the database went away, the process was
 * killed): the state still says `running` for that build. Once its lease expired, the build's marker on
 * disk (builds.ts readLiveMarker) is the proof it was published, and the state is read — and at the next
 * start written — as if the run had recorded its success (`settleUnrecordedRun`).
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
/** The live build's marker: what a publish wrote just before switching `current` to it. */
export type LiveMarker = { buildId: string; catalogVersion: number; publishedAt: string };

/**
 * A run whose lease expired while the state still says it is running, but whose build is the live one:
 * it switched the site and could not record that. Returns the state as its success would have left it,
 * or null when `state` is no such run.
 */
export function settleUnrecordedRun(state: StoredState, live: LiveMarker | null, now = Date.now()): StoredState | null {
  if (!live || !leaseExpired(state, now) || state.buildId !== live.buildId) return null;
  return {
    ...state,
    status: 'idle',
    finishedAt: live.publishedAt,
    heartbeatAt: live.publishedAt,
    error: null,
    lastPublished: { buildId: live.buildId, at: live.publishedAt, catalogVersion: live.catalogVersion },
  };
}

/** On success, the stale marker is settled: cleared, or kept from the build's start when the catalog changed meanwhile. */
async function settleStale(tx: DbOrTx, published: PublishedBuild, startedAt: string | null): Promise<void> {
  const { catalog_version } = await readCounters(tx, ['catalog_version']);
  if (catalog_version === published.catalogVersion) await deleteMeta(tx, STALE_KEY);
  // Changed while building: the new pages may miss those changes, so the site is stale since the build began.
  else await setMeta(tx, STALE_KEY, startedAt ?? published.at);
}

/**
 * Take the publish lease, or throw PublishBusyError when a live publisher holds it. `live` is the live
 * build's marker: a run that published it without recording so is recorded first (settleUnrecordedRun).
 */
export async function acquireLease(
  db: Database,
  buildId: string,
  live: LiveMarker | null = null,
): Promise<{ runId: string; catalogVersion: number }> {
  return db.transaction(async (tx) => {
    await initMeta(tx, STATE_KEY, EMPTY);
    const row = await getMetaRow(tx, STATE_KEY, { forUpdate: true });
    let state: StoredState = { ...EMPTY, ...(row!.value as Partial<StoredState>) };
    if (state.status === 'running' && !leaseExpired(state)) throw new PublishBusyError(state);
    const settled = settleUnrecordedRun(state, live);
    if (settled) {
      await settleStale(tx, settled.lastPublished!, state.startedAt);
      state = settled;
    }
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
      await settleStale(tx, next.lastPublished, state.startedAt);
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

/** The publish status; `live` is the live build's marker (a run that published it unrecorded reads as done). */
export async function readStatus(db: Database, live: LiveMarker | null = null): Promise<PublishStatus> {
  const [stored, counters, staleRow] = await Promise.all([
    readState(db),
    readCounters(db, ['catalog_version']),
    getMetaRow(db, STALE_KEY),
  ]);
  const state = settleUnrecordedRun(stored, live) ?? stored;
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
