// API latency and throughput with autocannon against a real engine process on loopback.
import autocannon from 'autocannon';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export function operationDocument(name) {
  const file = path.join(root, 'src', 'graphql', 'operations', `${name}.graphql`);
  let text = fs.readFileSync(file, 'utf8');
  // Operations import fragments with `#import "../fragments/x.graphql"` lines; inline them once each.
  const seen = new Set();
  const inline = (src, dir) =>
    src.replace(/^#import\s+"([^"]+)"\s*$/gm, (_m, rel) => {
      const abs = path.resolve(dir, rel);
      if (seen.has(abs)) return '';
      seen.add(abs);
      return inline(fs.readFileSync(abs, 'utf8'), path.dirname(abs));
    });
  return inline(text, path.dirname(file));
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
