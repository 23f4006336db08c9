// Build time: a clean `astro build` of every page in all six locales, isolated from dist/ and from the
// developer's database and cache — its own data dir, ASTRO_CACHE_DIR and outDir under var/bench/ —
// once with the seed catalog and once with a synthetic catalog (`npm run shop -- seed --synthetic N`).
// Peak resident memory of the build process is sampled too, because a big catalog fails on memory
// long before it fails on time.
//
// Standalone: node bench/build.mjs [seed|synthetic N] [--keep]   (--keep leaves the output for inspection)
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { seedCatalog } from './engine-process.mjs';

const root = path.resolve(import.meta.dirname, '..');

/**
 * @param {{ label: string, synthetic?: number, keep?: boolean, timeoutMs?: number }} options
 * @returns {Promise<{ ok: boolean, seconds: number, seedSeconds: number, pages: number, productPages: number,
 *   listingPages: number, peakMB: number, outDir: string, error?: string }>}
 */
export async function timeBuild({ label, synthetic, keep = false, timeoutMs = 60 * 60_000 }) {
  const base = path.join(root, 'var', 'bench', `build-${label}`);
  const outDir = path.join(base, 'dist');
  const env = {
    ...process.env,
    MESHFRONT_DATA_DIR: path.join(base, 'data'),
    ASTRO_CACHE_DIR: path.join(base, 'cache'),
    // The build reads the catalog from the database it seeds; the islands' Stripe key only has to exist.
    PUBLIC_STRIPE_PUBLISHABLE_KEY: process.env.PUBLIC_STRIPE_PUBLISHABLE_KEY ?? 'pk_test_benchstandin000000000',
  };
  fs.rmSync(base, { recursive: true, force: true });
  fs.mkdirSync(base, { recursive: true });

  let seedSeconds = 0;
  if (synthetic) {
    const started = Date.now();
    seedCatalog({ MESHFRONT_DATA_DIR: env.MESHFRONT_DATA_DIR }, synthetic);
    seedSeconds = (Date.now() - started) / 1000;
  }

  const started = Date.now();
  const run = await runMeasured(
    process.execPath,
    [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir],
    { cwd: root, env, timeoutMs },
  );
  const seconds = (Date.now() - started) / 1000;
  const result = {
    ok: run.code === 0,
    seconds,
    cpuSeconds: run.cpuSeconds,
    seedSeconds,
    pages: 0,
    productPages: 0,
    listingPages: 0,
    peakMB: Math.round(run.peakKB / 1024),
    outDir,
  };
  if (run.code !== 0) {
    const lastLines = run.output
      .split('\n')
      .filter((l) => l.trim())
      .slice(-3)
      .join(' | ');
    result.error = run.timedOut
      ? `no result after ${Math.round(timeoutMs / 60_000)} min`
      : `exit ${run.code}: ${lastLines}`;
  } else {
    const client = path.join(outDir, 'client');
    result.pages = countHtml(client);
    result.productPages = countInEveryLocale(client, 'product');
    result.listingPages = countInEveryLocale(client, 'products');
  }
  if (!keep) fs.rmSync(base, { recursive: true, force: true });
  return result;
}

/**
 * Runs a command, keeping the tail of its output and sampling the resident memory of it and its
 * children (Pagefind runs as a child) every 500 ms.
 */
function runMeasured(command, args, { cwd, env, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keepTail = (d) => {
      output = (output + d).slice(-20_000);
    };
    child.stdout.on('data', keepTail);
    child.stderr.on('data', keepTail);
    let peakKB = 0;
    let cpuSeconds = 0;
    const sampler = setInterval(() => {
      peakKB = Math.max(peakKB, treeRssKB(child.pid));
      cpuSeconds = Math.max(cpuSeconds, treeCpuSeconds(child.pid));
    }, 500);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearInterval(sampler);
      clearTimeout(timer);
      resolve({ code: code ?? 1, output, peakKB, cpuSeconds, timedOut });
    });
  });
}

/** Resident memory (KB) of a process and all its descendants, from /proc; 0 where /proc is absent. */
export function treeRssKB(pid) {
  return descendants(pid).reduce((sum, p) => sum + rssKB(p), 0);
}

/**
 * CPU seconds (user + system, including reaped children) used so far by a process and its descendants.
 * On a machine shared with other work, wall time grows with the load; CPU time is what the build costs.
 */
export function treeCpuSeconds(pid) {
  let ticks = 0;
  for (const p of descendants(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      // Fields 14–17 (utime, stime, cutime, cstime) in clock ticks, counted after the ')' of the name.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      /* ended meanwhile */
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** A process and all its descendants (by parent pid), from /proc; [] where /proc is absent. */
function descendants(pid) {
  if (!fs.existsSync('/proc')) return [];
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) follows the command name, which is in parentheses and may contain spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      /* the process ended while we looked */
    }
  }
  const all = [];
  const pending = [pid];
  while (pending.length) {
    const p = pending.pop();
    all.push(p);
    pending.push(...(children.get(p) ?? []));
  }
  return all;
}

export function rssKB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** HTML pages under `<client>/<section>` and every locale's `<client>/<prefix>/<section>`. */
function countInEveryLocale(client, section) {
  const roots = [
    client,
    ...fs
      .readdirSync(client, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(client, e.name)),
  ];
  return roots.reduce((n, dir) => n + countHtml(path.join(dir, section)), 0);
}

function countHtml(dir) {
  if (!fs.existsSync(dir)) return 0;
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) n += countHtml(path.join(dir, entry.name));
    else if (entry.name.endsWith('.html')) n++;
  }
  return n;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [kind = 'seed', count] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const synthetic = kind === 'synthetic' ? Number(count) : undefined;
  if (kind !== 'seed' && !(kind === 'synthetic' && Number.isInteger(synthetic) && synthetic > 0)) {
    console.error('usage: node bench/build.mjs [seed | synthetic <N>] [--keep]');
    process.exit(2);
  }
  const result = await timeBuild({
    label: synthetic ? `synthetic-${synthetic}` : 'seed',
    synthetic,
    keep: process.argv.includes('--keep'),
  });
  console.log(JSON.stringify(result, null, 2));
  process.exit(result.ok ? 0 : 1);
}
