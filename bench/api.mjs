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

/**
 * Runs one autocannon load; returns req/s, p50, p99 and the error count: non-2xx answers, timeouts and
 * answers that carry GraphQL errors (a refused request is fast, so a load that only measured refusals
 * would flatter the engine).
 *
 * `sessions`: with `rotate` false, one shopper per connection (each keeps its own woocommerce-session);
 * with `rotate` true, each request takes the next session of the list and the next `variables` of
 * `variablesList`, so many shoppers share the connections as they would behind a proxy — and no cart
 * grows past what a shopper would buy.
 */
export function load({
  url,
  body,
  headers = {},
  connections = 50,
  duration = 10,
  requests,
  sessions,
  rotate,
  variablesList,
}) {
  const baseHeaders = { 'content-type': 'application/json', ...headers };
  let nextClient = 0;
  let nextRequest = 0;
  let graphqlErrors = 0;
  const sessionHeader = (token) => ({ ...baseHeaders, 'woocommerce-session': `Session ${token}` });
  const onResponse = (status, responseBody) => {
    if (status === 200 && responseBody?.includes('"errors":')) graphqlErrors++;
  };
  const perRequest = rotate
    ? [
        {
          method: 'POST',
          setupRequest: (request) => {
            const i = nextRequest++;
            return {
              ...request,
              headers: sessions ? sessionHeader(sessions[i % sessions.length]) : baseHeaders,
              body: JSON.stringify(
                variablesList ? { ...body, variables: variablesList[i % variablesList.length] } : body,
              ),
            };
          },
          onResponse,
        },
      ]
    : [{ method: 'POST', onResponse }];
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: 'POST',
        connections,
        duration,
        requests: requests ?? perRequest,
        headers: baseHeaders,
        body: body ? JSON.stringify(body) : undefined,
        setupClient:
          sessions && !rotate
            ? (client) => client.setHeaders(sessionHeader(sessions[nextClient++ % sessions.length]))
            : undefined,
      },
      (err, result) => {
        if (err) return reject(err);
        resolve({
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.non2xx + result.timeouts + graphqlErrors,
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
