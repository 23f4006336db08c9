// Lighthouse (mobile form factor, simulated throttling — Lighthouse's defaults) on the built site,
// one page at a time in one headless Debian Chromium, with the four category scores and, for any page
// that misses a budget, the audits that cost it points — so a low score comes with its reason.
//
// Standalone, against a running site (e.g. `node scripts/serve.mjs`):
//   node bench/lighthouse.mjs http://127.0.0.1:4471 / /de/ /products/ [--save /tmp/lh]
// --save writes each page's full JSON report for digging (audits, LCP element, TBT sources, unused JS).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** The Lighthouse budget on a phone: performance ≥ 95, accessibility 100, best practices ≥ 95, SEO 100. */
export const LIGHTHOUSE_BUDGETS = { performance: 95, accessibility: 100, 'best-practices': 95, seo: 100 };

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // English UI so unprefixed pages are not sent to another locale by the first-visit language redirect.
  '--lang=en-US',
];

/**
 * Runs Lighthouse on each page in turn (never in parallel: parallel runs share the CPU and skew the
 * simulated timings). Returns per page the scores (0–100), key metrics and the audits that fell short.
 * @param {string} baseUrl
 * @param {{ name: string, path: string }[]} pages
 * @param {{ saveDir?: string, chromePath?: string, onResult?: (r: object) => void }} [options]
 */
export async function runLighthouse(baseUrl, pages, { saveDir, chromePath, onResult } = {}) {
  const chrome = await chromeLauncher.launch({
    chromePath: chromePath ?? process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  });
  const results = [];
  try {
    // A throwaway run first: the first page a fresh Chromium loads also pays the browser's own start-up
    // (its caches and compiler warming up), which made whichever page came first score lower than the
    // same page later on. Lighthouse's simulated timings are derived from that observed main-thread work.
    if (pages.length) {
      await lighthouse(new URL(pages[0].path, baseUrl).href, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        formFactor: 'mobile',
        throttlingMethod: 'simulate',
      }).catch(() => {});
    }
    for (const page of pages) {
      const url = new URL(page.path, baseUrl).href;
      let result;
      // A page load that Lighthouse could not measure at all (runtimeError, e.g. NO_FCP when the machine is
      // so busy that nothing paints within its wait) is tried once more; the row says so.
      for (let attempt = 1; attempt <= 2; attempt++) {
        try {
          const run = await lighthouse(url, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: CATEGORIES,
            formFactor: 'mobile',
            throttlingMethod: 'simulate',
          });
          if (!run?.lhr) throw new Error('Lighthouse returned no report');
          if (saveDir) {
            fs.mkdirSync(saveDir, { recursive: true });
            fs.writeFileSync(path.join(saveDir, `${slugFor(page.name)}.json`), JSON.stringify(run.lhr));
          }
          if (run.lhr.runtimeError) throw new Error(`${run.lhr.runtimeError.code}: ${run.lhr.runtimeError.message}`);
          result = { ...page, url, attempts: attempt, ...summarise(run.lhr) };
        } catch (err) {
          result = { ...page, url, attempts: attempt, error: String(err?.message ?? err).split('\n')[0] };
        }
        if (!result.error) break;
      }
      results.push(result);
      onResult?.(result);
    }
  } finally {
    await chrome.kill();
  }
  return results;
}

/** Which categories of a result miss their budget (an unmeasured score counts as a miss). */
export function missedBudgets(result) {
  if (result.error) return CATEGORIES;
  return CATEGORIES.filter((c) => !(result.scores[c] >= LIGHTHOUSE_BUDGETS[c]));
}

function summarise(lhr) {
  const scores = {};
  for (const c of CATEGORIES) {
    const score = lhr.categories[c]?.score;
    scores[c] = typeof score === 'number' ? Math.round(score * 100) : null;
  }
  const audit = (id) => lhr.audits[id];
  const metrics = {
    fcpMs: Math.round(audit('first-contentful-paint')?.numericValue ?? NaN),
    lcpMs: Math.round(audit('largest-contentful-paint')?.numericValue ?? NaN),
    tbtMs: Math.round(audit('total-blocking-time')?.numericValue ?? NaN),
    cls: Number((audit('cumulative-layout-shift')?.numericValue ?? NaN).toFixed(3)),
    siMs: Math.round(audit('speed-index')?.numericValue ?? NaN),
  };
  // The audits that cost points: weighted audits in each category whose score is below 1. Purely
  // informative audits (weight 0) are left out unless they are the performance diagnostics below.
  const shortfalls = [];
  for (const c of CATEGORIES) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (!a || ref.weight === 0 || a.score === null || a.score >= 1) continue;
      if (
        a.scoreDisplayMode === 'notApplicable' ||
        a.scoreDisplayMode === 'manual' ||
        a.scoreDisplayMode === 'informative'
      )
        continue;
      shortfalls.push({
        category: c,
        id: ref.id,
        score: a.score,
        display: a.displayValue ?? '',
        detail: firstItems(a),
      });
    }
  }
  return {
    scores,
    metrics,
    shortfalls,
    lcpElement: lcpElement(lhr),
    unusedJsKB: Math.round((audit('unused-javascript')?.details?.overallSavingsBytes ?? 0) / 1024),
    tbtSources: longestTasks(lhr),
    // Lighthouse's own CPU benchmark of this machine at the time of the run: low figures (other work on
    // the cores) inflate the simulated main-thread times, so read TBT next to it.
    benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? 0),
    compressionSavingsKB: Math.round((audit('document-latency-insight')?.details?.debugData?.wastedBytes ?? 0) / 1024),
    renderBlocking: (audit('render-blocking-insight')?.details?.items ?? []).map(
      (i) => `${shortUrl(i.url)} ${Math.round((i.totalBytes ?? 0) / 1024)} KB`,
    ),
  };
}

function lcpElement(lhr) {
  // Lighthouse 13 names the LCP element in the LCP breakdown insight (a node item in its list).
  const items =
    lhr.audits['lcp-breakdown-insight']?.details?.items ??
    lhr.audits['largest-contentful-paint-element']?.details?.items ??
    [];
  for (const item of items) {
    const node = item.type === 'node' ? item : item.node;
    if (node?.selector || node?.snippet)
      return `${node.selector ?? node.snippet}${node.nodeLabel ? ` "${node.nodeLabel.slice(0, 40)}"` : ''}`;
  }
  return '';
}

/** The longest main-thread tasks (what total blocking time is made of), with the script or document that ran them. */
function longestTasks(lhr) {
  const tasks = lhr.audits['long-tasks']?.details?.items ?? [];
  return [...tasks]
    .sort((a, b) => b.duration - a.duration)
    .slice(0, 3)
    .map((t) => `${shortUrl(t.url) ?? t.url} ${Math.round(t.duration)} ms`);
}

/** The first two failing items of an audit (element selector or URL), enough to find the culprit. */
function firstItems(a) {
  const items = a.details?.items ?? [];
  return items
    .slice(0, 2)
    .map((i) => i.node?.snippet ?? i.node?.selector ?? shortUrl(i.url) ?? i.source?.url ?? '')
    .filter(Boolean)
    .join(' ; ');
}

function shortUrl(url) {
  if (typeof url !== 'string') return undefined;
  try {
    const u = new URL(url);
    return u.pathname.length > 60 ? `${u.pathname.slice(0, 57)}…` : u.pathname;
  } catch {
    return url;
  }
}

function slugFor(name) {
  return (
    name
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'home'
  );
}

/** One line per page: the four scores, key metrics, then what fell short. */
export function describe(result) {
  if (result.error)
    return `${result.name} (${result.path}): Lighthouse failed${result.attempts > 1 ? ' twice' : ''}: ${result.error}`;
  const s = result.scores;
  const m = result.metrics;
  const lines = [
    `${result.name.padEnd(22)} perf ${s.performance} a11y ${s.accessibility} bp ${s['best-practices']} seo ${s.seo}` +
      `  | FCP ${m.fcpMs} ms LCP ${m.lcpMs} ms TBT ${m.tbtMs} ms CLS ${m.cls}  (${result.path})${result.attempts > 1 ? ' (second attempt)' : ''}`,
  ];
  for (const f of result.shortfalls)
    lines.push(`    ${f.category}: ${f.id} (${f.score}) ${f.display} ${f.detail}`.trimEnd());
  if (missedBudgets(result).includes('performance')) {
    lines.push(`    LCP element: ${result.lcpElement || '—'}`);
    lines.push(
      `    longest tasks: ${result.tbtSources.join(', ') || '—'} (CPU benchmark index ${result.benchmarkIndex}); unused JS ${result.unusedJsKB} KB`,
    );
    lines.push(
      `    render-blocking: ${result.renderBlocking.join(', ') || '—'}; HTML compression would save ${result.compressionSavingsKB} KB`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const saveAt = args.indexOf('--save');
  const saveDir = saveAt >= 0 ? args[saveAt + 1] : undefined;
  const positional = args.filter((a, i) => !a.startsWith('--') && !(saveAt >= 0 && i === saveAt + 1));
  const [base, ...paths] = positional;
  if (!base || !/^https?:\/\//.test(base) || paths.length === 0) {
    console.error('usage: node bench/lighthouse.mjs <base-url> <path> [<path> …] [--save <dir>]');
    process.exit(2);
  }
  const results = await runLighthouse(
    base,
    paths.map((p) => ({ name: p, path: p })),
    { saveDir, onResult: (r) => console.log(describe(r)) },
  );
  process.exit(results.some((r) => missedBudgets(r).length) ? 1 : 0);
}
