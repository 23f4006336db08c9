// Starts a commerce engine process (`npm run api`) on a loopback port against a given database,
// seeding it first, and stops it afterwards.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

export function seedCatalog(env, syntheticCount) {
  const args = ['src/server/cli.ts', 'seed', '--reset'];
  if (syntheticCount) args.push('--synthetic', String(syntheticCount));
  const r = spawnSync(tsx, args, { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`seeding failed:\n${r.stdout}\n${r.stderr}`);
}

export async function startEngine({ port, env }) {
  const child = spawn(tsx, ['src/server/http/standalone.ts'], {
    cwd: root,
    // Production settings, as a shop runs; a fixed secret because PostgreSQL mode requires one.
    env: { ...process.env, NODE_ENV: 'production', TRUSTED_DOCUMENTS_ONLY: 'false', SESSION_SECRET: 'bench-only-secret-0123456789abcdef0123456789', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}/graphql`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`engine exited early:\n${log}`);
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
      if (res.ok) return { url, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }), rssKB: () => readRss(child.pid) };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`engine did not start within 60 s:\n${log}`);
}

function readRss(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch { return 0; }
}
