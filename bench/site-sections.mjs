// The site half of `npm run bench` as table rows: Lighthouse per page, the Node server against a plain
// static file server, build times (seed catalog and a synthetic one) and the soak. run.mjs calls these
// with its `row(area, measure, value, unit, budget, ok, note)`.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { runLighthouse, describe, missedBudgets, LIGHTHOUSE_BUDGETS } from './lighthouse.mjs';
import { startPlainStaticServer, compareStatic } from './static-server.mjs';
import { timeBuild } from './build.mjs';
import { soak, parseDuration } from './soak.mjs';

const root = path.resolve(import.meta.dirname, '..');
/** The build to measure: dist/ unless MESHFRONT_DIST_DIR points at another (astro build --outDir …). */
const distDir = () => path.resolve(process.env.MESHFRONT_DIST_DIR ?? path.join(root, 'dist'));
const hasBuild = () => fs.existsSync(path.join(distDir(), 'server', 'entry.mjs'));

const SITE_PORT = 4474;
const PLAIN_PORT = 4475;

/** A product page and a support article and guide that exist in the build. */
function samplePages() {
  const client = path.join(distDir(), 'client');
  const first = (dir) =>
    fs.existsSync(path.join(client, dir)) ? fs.readdirSync(path.join(client, dir)).sort()[0] : undefined;
  const product = fs.existsSync(path.join(client, 'product', 'meshfront-indoor-gateway'))
    ? 'meshfront-indoor-gateway'
    : first('product');
  return {
    product: product && `/product/${product}/`,
    support: '/support/getting-started/what-is-meshfront/',
    guide: '/guides/meshfront-gateway-indoor/',
  };
}

async function withSite(fn) {
  const server = spawn(process.execPath, ['scripts/serve.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      MESHFRONT_DIST_DIR: distDir(),
      MESHFRONT_DATA_DIR: path.join(root, 'var', 'bench', 'site-data'),
      PORT: String(SITE_PORT),
      HOST: '127.0.0.1',
    },
    stdio: 'ignore',
  });
  try {
    const base = `http://127.0.0.1:${SITE_PORT}`;
    let up = false;
    for (let i = 0; i < 240 && !up; i++) {
      try {
        up = (await fetch(`${base}/`)).ok;
      } catch {
        /* starting */
      }
      if (!up) await new Promise((r) => setTimeout(r, 250));
    }
    if (!up) throw new Error('scripts/serve.mjs did not answer within 60 s');
    return await fn(base);
  } finally {
    server.kill('SIGTERM');
  }
}

/** Lighthouse on home, listing, a product, a support article and a guide, in English and German. */
export async function benchLighthouse(row, { log = console.log } = {}) {
  if (!hasBuild())
    return row('lighthouse', 'all pages', '—', '', '', false, `no build in ${distDir()}: run \`npm run build\` first`);
  const sample = samplePages();
  const english = [
    { name: 'home', path: '/' },
    { name: 'listing', path: '/products/' },
    { name: 'product', path: sample.product },
    { name: 'support article', path: sample.support },
    { name: 'guide', path: sample.guide },
  ].filter((p) => p.path);
  const pages = english.flatMap((p) => [p, { name: `${p.name} (de)`, path: `/de${p.path}` }]);
  const budget = `≥ ${LIGHTHOUSE_BUDGETS.performance}/${LIGHTHOUSE_BUDGETS.accessibility}/${LIGHTHOUSE_BUDGETS['best-practices']}/${LIGHTHOUSE_BUDGETS.seo}`;
  await withSite(async (base) => {
    const results = await runLighthouse(base, pages, {
      saveDir: path.join(root, 'var', 'bench', 'lighthouse'),
      onResult: (r) => log(describe(r)),
    });
    for (const r of results) {
      if (r.error) {
        row('lighthouse', r.name, '—', '', budget, false, `${r.path}: ${r.error}`);
        continue;
      }
      const s = r.scores;
      const missed = missedBudgets(r);
      const why = missed.length ? ` — below budget: ${missed.join(', ')}; ${shortfallNote(r)}` : '';
      row(
        'lighthouse',
        `${r.name} (perf/a11y/bp/seo)`,
        `${s.performance}/${s.accessibility}/${s['best-practices']}/${s.seo}`,
        '',
        budget,
        missed.length === 0,
        `LCP ${(r.metrics.lcpMs / 1000).toFixed(1)} s, TBT ${r.metrics.tbtMs} ms, CLS ${r.metrics.cls}, CPU index ${r.benchmarkIndex}${r.attempts > 1 ? ', second attempt' : ''}${why}`,
      );
    }
  });
}

function shortfallNote(r) {
  return r.shortfalls
    .slice(0, 3)
    .map((f) => `${f.id} ${f.display}`.trim())
    .join(', ');
}

/** req/s and p99 of scripts/serve.mjs next to a plain static file server for the same prebuilt files. */
export async function benchStaticServer(row, { duration = 10 } = {}) {
  if (!hasBuild())
    return row(
      'static pages',
      'Node server vs plain',
      '—',
      '',
      '',
      false,
      `no build in ${distDir()}: run \`npm run build\` first`,
    );
  const sample = samplePages();
  const plain = await startPlainStaticServer(path.join(distDir(), 'client'), PLAIN_PORT);
  try {
    await withSite(async (base) => {
      for (const [name, pagePath] of [
        ['product', sample.product],
        ['support article', sample.support],
      ]) {
        if (!pagePath) continue;
        const r = await compareStatic({
          nodeBase: base,
          plainBase: `http://127.0.0.1:${PLAIN_PORT}`,
          pagePath,
          connections: 50,
          duration,
        });
        const errors = r.node.errors + r.plain.errors;
        row(
          'static pages',
          `${name}: Node server`,
          r.node.rps.toFixed(0),
          'req/s',
          '—',
          r.node.errors === 0,
          `p99 ${r.node.p99} ms, p50 ${r.node.p50} ms, ${r.nodeProbe.bytes} B ${r.nodeProbe.encoding} per response, ${r.node.errors} errors`,
        );
        row(
          'static pages',
          `${name}: plain server (ceiling)`,
          r.plain.rps.toFixed(0),
          'req/s',
          '—',
          r.plain.errors === 0,
          `p99 ${r.plain.p99} ms, p50 ${r.plain.p50} ms, ${r.plainProbe.bytes} B ${r.plainProbe.encoding} per response`,
        );
        row(
          'static pages',
          `${name}: Node / plain`,
          r.ratio.toFixed(2),
          '×',
          '—',
          errors === 0,
          `50 connections, ${duration} s each, one after the other`,
        );
      }
    });
  } finally {
    await new Promise((r) => plain.close(r));
  }
}

/** Clean builds: the seed catalog (budget ≤ 60 s) and 5,000 synthetic products (reported). */
export async function benchBuilds(row, { synthetic = 5000 } = {}) {
  const seed = await timeBuild({ label: 'seed' });
  if (!seed.ok)
    row('build', 'all pages, six locales (seed catalog)', '—', '', '≤ 60 s', false, `build failed: ${seed.error}`);
  else
    row(
      'build',
      'all pages, six locales (seed catalog)',
      seed.seconds.toFixed(1),
      's',
      '≤ 60 s',
      seed.seconds <= 60,
      `${seed.pages} HTML pages (${seed.productPages} product), ${seed.cpuSeconds.toFixed(0)} s CPU, peak ${seed.peakMB} MB; includes seeding a fresh database and the Pagefind index`,
    );
  if (!synthetic) return;
  const big = await timeBuild({ label: `synthetic-${synthetic}`, synthetic });
  if (!big.ok)
    return row(
      'build',
      `all pages, six locales (${synthetic} products)`,
      '—',
      '',
      'reported',
      false,
      `build failed: ${big.error} (peak ${big.peakMB} MB)`,
    );
  // Every product must have its page in all six locales, or the build silently dropped some.
  const complete = big.productPages >= synthetic * 6;
  row(
    'build',
    `all pages, six locales (${synthetic} products)`,
    big.seconds.toFixed(1),
    's',
    'reported',
    complete,
    `${big.pages} HTML pages (${big.productPages} product, ${big.listingPages} listing), ${big.cpuSeconds.toFixed(0)} s CPU, peak ${big.peakMB} MB; seeding took ${big.seedSeconds.toFixed(1)} s more${complete ? '' : ` — expected ${synthetic * 6} product pages`}`,
  );
}

/** `--soak 10m`: mixed traffic; error rate < 0.1 % and flat memory. */
export async function benchSoak(row, durationText, { log = console.log } = {}) {
  const durationMs = parseDuration(durationText);
  const r = await soak({ durationMs, distDir: distDir(), log });
  const kinds = Object.entries(r.kinds)
    .map(([k, v]) => `${k} ${v.count} (p99 ${v.p99} ms${v.errors ? `, ${v.errors} err` : ''})`)
    .join(', ');
  row(
    'soak',
    `error rate over ${durationText}`,
    (r.errorRate * 100).toFixed(3),
    '%',
    '< 0.1 %',
    r.errorRate < 0.001,
    `${r.total} requests, ${r.rps.toFixed(0)} req/s, ${r.errors} errors; ${kinds}${r.firstErrors.length ? `; first: ${r.firstErrors.slice(0, 2).join(' | ')}` : ''}`,
  );
  const m = r.memory;
  row(
    'soak',
    'resident memory growth after warm-up',
    m.baselineMB ? (m.growth * 100).toFixed(1) : '—',
    m.baselineMB ? '%' : '',
    '≤ 10 %',
    m.ok,
    m.reason ??
      `${m.baselineMB} MB after warm-up (${Math.round(m.warmupS)} s) → ${m.finalMB} MB at the end, peak ${m.peakMB} MB; samples: ${r.samples.map((s) => s.rssMB).join(' ')}`,
  );
}
