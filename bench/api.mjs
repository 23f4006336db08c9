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
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  const body = await res.json();
  if (body.errors?.length) throw new Error(`${body.errors[0].message}`);
  return { data: body.data, session: res.headers.get('woocommerce-session') };
}

/** Runs one autocannon load; returns req/s, p50, p99 and the error count (non-2xx, GraphQL errors are sampled). */
export function load({ url, body, headers = {}, connections = 50, duration = 10, requests }) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url, method: 'POST', connections, duration, requests,
        headers: { 'content-type': 'application/json', ...headers },
        body: body ? JSON.stringify(body) : undefined,
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
