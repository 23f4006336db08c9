// API latency and throughput with autocannon against a real engine process on loopback.
import autocannon from 'autocannon';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** The storefront's operation text with every fragment it spreads (transitively), as islands send it. */
export function operationDocument(name) {
  const dir = path.join(root, 'src', 'graphql');
  const read = (folder, file) => fs.readFileSync(path.join(dir, folder, `${file}.graphql`), 'utf8');
  const operation = read('operations', name);
  const included = new Set();
  const pending = [...operation.matchAll(/\.\.\.\s*([A-Z]\w*)/g)].map((m) => m[1]);
  const parts = [operation];
  while (pending.length) {
    const fragment = pending.pop();
    if (included.has(fragment)) continue;
    included.add(fragment);
    const text = read('fragments', fragment);
    parts.push(text);
    for (const m of text.matchAll(/\.\.\.\s*([A-Z]\w*)/g)) pending.push(m[1]);
  }
  return parts.join('\n');
}

export async function graphql(url, query, variables, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json();
  if (body.errors?.length) throw new Error(`${body.errors[0].message}`);
  return { data: body.data, session: res.headers.get('woocommerce-session') };
}

/** Runs one autocannon load; returns req/s, p50, p99 and the error count (non-2xx, GraphQL errors are sampled). */
export function load({ url, body, headers = {}, connections = 50, duration = 10, requests, sessions }) {
  const baseHeaders = { 'content-type': 'application/json', ...headers };
  let nextClient = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: 'POST',
        connections,
        duration,
        requests,
        headers: baseHeaders,
        body: body ? JSON.stringify(body) : undefined,
        // One shopper per connection: each keeps its own woocommerce-session (and so its own cart).
        setupClient: sessions
          ? (client) =>
              client.setHeaders({
                ...baseHeaders,
                'woocommerce-session': `Session ${sessions[nextClient++ % sessions.length]}`,
              })
          : undefined,
      },
      (err, result) => {
        if (err) return reject(err);
        resolve({
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.non2xx + result.timeouts,
          total: result.requests.total,
        });
      },
    );
  });
}

/** p50/p99 of a list of latencies in ms (nearest rank). */
export function percentiles(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN);
  return { p50: Math.round(at(0.5)), p99: Math.round(at(0.99)) };
}

/** One POST without throwing on GraphQL errors: the body, the session token to keep, and the latency. */
export async function post(url, query, variables, token) {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'woocommerce-session': `Session ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json();
  return {
    status: res.status,
    body,
    token: res.headers.get('woocommerce-session') ?? token,
    ms: performance.now() - started,
  };
}

/**
 * Shopping flows at a fixed concurrency for `duration` seconds: `concurrency` workers each run `flow(i)`
 * again and again; a flow returns the latencies it wants counted under a name ({ Checkout: 12.3 }) and
 * throws on an error. Used where one measured request needs others before it (a cart before a checkout).
 */
export async function runFlows({ concurrency, duration, flow }) {
  const latencies = {};
  let errors = 0;
  let firstError = null;
  let iterations = 0;
  const deadline = performance.now() + duration * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < deadline) {
        try {
          const measured = await flow(worker * 1_000_000 + iterations++);
          for (const [name, ms] of Object.entries(measured)) {
            latencies[name] ??= [];
            latencies[name].push(ms);
          }
        } catch (err) {
          errors++;
          firstError ??= `${err?.message ?? err}${err?.cause ? `: ${err.cause.code ?? err.cause.message ?? err.cause}` : ''}`;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const out = {};
  for (const [name, list] of Object.entries(latencies))
    out[name] = { rps: list.length / seconds, total: list.length, ...percentiles(list) };
  return { results: out, errors, firstError };
}
