// `npm run bench`: measures what shoppers and operators feel and prints one table against the
// budgets in DESIGN.md. Exits non-zero when a measured figure breaks its budget.
//
//   npm run bench                  everything that can run here
//   npm run bench -- --only api    API only;  --only site  page weight only;  --only build  build time
//   npm run bench -- --quick       shorter loads (3 s) for a smoke run
import path from 'node:path';
import fs from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { seedCatalog, startEngine } from './engine-process.mjs';
import { operationDocument, graphql, load } from './api.mjs';
import { measurePageWeights } from './page-weight.mjs';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const duration = args.includes('--quick') ? 3 : 10;
const rows = [];

function row(area, measure, value, unit, budget, ok, note = '') {
  rows.push({ area, measure, value, unit, budget, ok, note });
}

async function benchApi(label, env) {
  const dataDir = env.MESHFRONT_DATA_DIR;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  seedCatalog(env, 1000);
  const engine = await startEngine({ port: 4510, env });
  try {
    const getProducts = operationDocument('getProducts');
    const getProduct = operationDocument('getProduct');
    const list = await graphql(engine.url, getProducts, { first: 24 });
    const slug = list.data.products.nodes[5].slug;
    // Warm-up so caches and JIT are in the state a running shop is in.
    await load({ url: engine.url, body: { query: getProducts, variables: { first: 24 } }, connections: 10, duration: 2 });
    await load({ url: engine.url, body: { query: getProduct, variables: { slug } }, connections: 10, duration: 2 });

    const lp = await load({ url: engine.url, body: { query: getProducts, variables: { first: 24 } }, connections: 50, duration });
    row(`API ${label}`, 'getProducts (24) p99', lp.p99, 'ms', '≤ 25', lp.p99 <= 25 && lp.errors === 0, `${lp.rps.toFixed(0)} req/s, p50 ${lp.p50} ms, ${lp.errors} errors`);
    const gp = await load({ url: engine.url, body: { query: getProduct, variables: { slug } }, connections: 50, duration });
    row(`API ${label}`, 'getProduct p99', gp.p99, 'ms', '≤ 25', gp.p99 <= 25 && gp.errors === 0, `${gp.rps.toFixed(0)} req/s, p50 ${gp.p50} ms, ${gp.errors} errors`);
    row(`API ${label}`, 'engine resident memory after load', Math.round(engine.rssKB() / 1024), 'MB', '—', true);
  } finally {
    await engine.stop();
  }
}

async function benchSite() {
  if (!fs.existsSync(path.join(root, 'dist', 'server', 'entry.mjs'))) {
    row('site', 'page weight', '—', '', '', false, 'no build: run `npm run build` first');
    return;
  }
  const port = 4511;
  const server = spawn(process.execPath, ['scripts/serve.mjs'], { cwd: root, env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 120; i++) {
      try { if ((await fetch(base + '/')).ok) break; } catch { /* starting */ }
      await new Promise((r) => setTimeout(r, 250));
    }
    const candidates = [
      { name: 'home', path: '/', budget: 90 },
      { name: 'home (de)', path: '/de/', budget: 90 },
      { name: 'listing', path: '/products/', budget: 90 },
      { name: 'product', path: firstProductPath(), budget: 90 },
      { name: 'support article', path: '/support/getting-started/what-is-meshfront/', budget: 35 },
      { name: 'guide', path: '/guides/meshfront-gateway-indoor/', budget: 35 },
      { name: 'policy', path: '/policies/privacy-policy/', budget: 35 },
    ].filter((c) => c.path);
    const results = await measurePageWeights(base, candidates);
    for (const r of results) {
      const c = candidates.find((x) => x.path === r.path);
      if (r.status !== 200) {
        row('site', `${r.name} JS (gzip)`, '—', '', `≤ ${c.budget} KB`, false, `${r.path} answered ${r.status}`);
        continue;
      }
      row('site', `${r.name} JS (gzip)`, r.jsKB.toFixed(1), 'KB', `≤ ${c.budget} KB`, r.jsKB <= c.budget, `CSS ${r.cssKB.toFixed(1)} KB`);
    }
  } finally {
    server.kill('SIGTERM');
  }
}

/** Time for a clean build of every page in all six locales with the seed catalog (budget ≤ 60 s). */
function benchBuild() {
  const outDir = path.join(root, 'var', 'bench', 'build-dist');
  const env = {
    ...process.env,
    MESHFRONT_DATA_DIR: path.join(root, 'var', 'bench', 'build-data'),
    ASTRO_CACHE_DIR: path.join(root, 'var', 'bench', 'build-cache'),
  };
  for (const dir of [outDir, env.MESHFRONT_DATA_DIR, env.ASTRO_CACHE_DIR]) fs.rmSync(dir, { recursive: true, force: true });
  const started = Date.now();
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir], { cwd: root, env, encoding: 'utf8' });
  const seconds = (Date.now() - started) / 1000;
  if (r.status !== 0) {
    row('build', 'all pages, six locales', '—', '', '≤ 60 s', false, `build failed: ${(r.stderr || r.stdout).split('\n').filter(Boolean).pop()}`);
    return;
  }
  const pages = countHtml(path.join(outDir, 'client'));
  row('build', 'all pages, six locales (seed catalog)', seconds.toFixed(1), 's', '≤ 60 s', seconds <= 60, `${pages} HTML pages, includes seeding a fresh database and the Pagefind index`);
  fs.rmSync(outDir, { recursive: true, force: true });
}

function countHtml(dir) {
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) n += countHtml(path.join(dir, entry.name));
    else if (entry.name.endsWith('.html')) n++;
  }
  return n;
}

function firstProductPath() {
  const dir = path.join(root, 'dist', 'client', 'product');
  if (!fs.existsSync(dir)) return undefined;
  const first = fs.readdirSync(dir).sort()[0];
  return first ? `/product/${first}/` : undefined;
}

/** One section's failure is reported as a row and does not stop the others. */
async function section(name, fn) {
  try {
    await fn();
  } catch (err) {
    row(name, 'run', '—', '', '', false, String(err?.message ?? err).split('\n').filter(Boolean).slice(0, 2).join(' | '));
  }
}

if (!only || only === 'api') {
  await section('API PGlite', () => benchApi('PGlite', { MESHFRONT_DATA_DIR: path.join(root, 'var', 'bench', 'pglite') }));
  const pg = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pg) await section('API PostgreSQL', () => benchApi('PostgreSQL', { DATABASE_URL: pg, MESHFRONT_DATA_DIR: path.join(root, 'var', 'bench', 'pg') }));
  else row('API PostgreSQL', 'all', '—', '', '', true, 'skipped: set BENCH_DATABASE_URL=postgres://…');
}
if (!only || only === 'site') await section('site', benchSite);
if (!only || only === 'build') await section('build', async () => benchBuild());

const widths = [18, 36, 10, 12, 6];
const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i] ?? 0)).join(' ');
console.log('\n' + line(['area', 'measure', 'value', 'budget', 'ok']) + ' note');
console.log('-'.repeat(110));
for (const r of rows) console.log(line([r.area, r.measure, `${r.value} ${r.unit}`.trim(), r.budget, r.ok ? 'yes' : 'NO']) + ' ' + r.note);
const broken = rows.filter((r) => !r.ok);
if (broken.length) {
  console.log(`\n${broken.length} budget(s) broken or not measurable.`);
  process.exit(1);
}
