// API rows where the storefront's caches and kept-alive connections do not help: a burst of new
// connections, and getProduct over the whole catalog with no stored answer to serve.
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { graphql, load, operationDocument, percentiles } from './api.mjs';

/** New connections opened at once in the burst row, and how many such bursts are pooled into its figures. */
const BURST_CONNECTIONS = 500;
const BURSTS = 3;
/** The burst row's name, the same for the engine and for Vendure (bench/vendure.mjs). */
export const BURST_MEASURE = `burst of ${BURST_CONNECTIONS} new connections p99`;
/** Answer languages the cache-cold getProduct row cycles through, one pass over all slugs each (the six the shop speaks). */
const LANGUAGES = ['en-US', 'de-DE', 'es-ES', 'fr-FR', 'it-IT', 'pt-BR'];

/**
 * A load generator for bursts of new connections against `url` (bench/burst.mjs, in a worker thread of
 * its own): `run(count)` opens `count` connections at once, each with one request (cycling through
 * `requests`, each `{ body, headers }`) and `Connection: close`. A run returns the latencies of the right
 * answers (connect call to last byte), the connects' own latencies, the errors, how long opening the
 * connections took, the whole burst and the generator's CPU time in it.
 */
function burster({ url, requests, timeoutMs = 30_000 }) {
  const worker = new Worker(new URL('./burst.mjs', import.meta.url), { workerData: { url, requests, timeoutMs } });
  return {
    run: (count) =>
      new Promise((resolve, reject) => {
        const failed = (err) => {
          worker.off('message', answered);
          reject(err);
        };
        const answered = (result) => {
          worker.off('error', failed);
          resolve(result);
        };
        worker.once('message', answered);
        worker.once('error', failed);
        worker.postMessage({ count });
      }),
    close: () => worker.terminate(),
  };
}

/**
 * The floor under the burst figures on this machine: a plain node:http server in a process of its own that
 * answers every request at once with `size` bytes of JSON (the engine's answers' size), no session, no
 * GraphQL. The same burst against it shows what the generator, loopback TCP and a busy machine cost alone.
 */
const PLAIN_SERVER = `
import http from 'node:http';
const [port, size] = process.argv.slice(1).map(Number);
const body = Buffer.from(JSON.stringify({ data: { pad: ' '.repeat(Math.max(0, size - 20)) } }));
http
  .createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  })
  .listen(port, '127.0.0.1', () => process.send('listening'));
`;

async function startPlainServer(port, size) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', PLAIN_SERVER, String(port), String(size)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the plain server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    stop: () =>
      new Promise((r) => {
        child.removeAllListeners('exit');
        child.once('exit', r);
        child.kill('SIGTERM');
      }),
  };
}

/** BURSTS bursts of BURST_CONNECTIONS a second apart, after a warm-up burst of 50, pooled. */
export async function pooledBursts(url, requests) {
  const generator = burster({ url, requests });
  try {
    await generator.run(50);
    const pooled = { latencies: [], connects: [], errors: [], slowestOpening: 0, cpuMs: 0, wallMs: 0 };
    for (let i = 0; i < BURSTS; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const b = await generator.run(BURST_CONNECTIONS);
      pooled.latencies.push(...b.latencies);
      pooled.connects.push(...b.connectLatencies);
      pooled.errors.push(...b.errors);
      pooled.slowestOpening = Math.max(pooled.slowestOpening, b.issueMs);
      pooled.cpuMs += b.cpuMs;
      pooled.wallMs += b.wallMs;
    }
    return pooled;
  } finally {
    await generator.close();
  }
}

/**
 * New shoppers arriving at once: BURST_CONNECTIONS fresh TCP connections opened together, each sending one
 * storefront read (getProducts (24) and getProduct, alternating, the bodies of the catalog rows) over
 * HTTP/1.1 without keep-alive — what a campaign link or a crawler that opens a connection per page
 * costs: the accept, the server's per-connection set-up, a new session token, the answer. The same
 * bursts against a plain node:http server (the port after the engine's next) give the floor in the note.
 */
export async function burstRow(row, area, engine) {
  const getProducts = operationDocument('getProducts');
  const getProduct = operationDocument('getProduct');
  const list = await graphql(engine.url, getProducts, { first: 24 });
  const requests = [
    { body: { query: getProducts, variables: { first: 24 } } },
    { body: { query: getProduct, variables: { slug: list.data.products.nodes[5].slug } } },
  ];
  const b = await pooledBursts(engine.url, requests);
  const answerBytes = await Promise.all(
    requests.map(async ({ body }) => {
      const res = await fetch(engine.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.arrayBuffer()).byteLength;
    }),
  );
  const plainServer = await startPlainServer(
    Number(new URL(engine.url).port) + 2,
    Math.round(answerBytes.reduce((a, n) => a + n, 0) / answerBytes.length),
  );
  let plain;
  try {
    plain = await pooledBursts(plainServer.url, requests);
  } finally {
    await plainServer.stop();
  }
  const all = percentiles(b.latencies);
  const max = b.latencies.length ? Math.round(Math.max(...b.latencies)) : Number.NaN;
  const connect = percentiles(b.connects);
  const floor = percentiles(plain.latencies);
  const kinds = [...new Set(b.errors)].slice(0, 2).join('; ');
  row(
    area,
    BURST_MEASURE,
    b.latencies.length ? all.p99 : '—',
    'ms',
    '≤ 100',
    all.p99 <= 100 && b.errors.length === 0 && b.latencies.length > 0,
    `p50 ${b.latencies.length ? all.p50 : '—'} ms, max ${max} ms, ${b.errors.length} errors${kinds ? ` (${kinds})` : ''}; connect p50/p99 ${connect.p50}/${connect.p99} ms; ${BURSTS} bursts pooled, each opened in ≤ ${Math.round(b.slowestOpening)} ms, generator CPU ${Math.round(b.cpuMs)} of ${Math.round(b.wallMs)} ms; plain node:http server, same bursts: p50 ${floor.p50}, p99 ${floor.p99} ms${plain.errors.length ? `, ${plain.errors.length} errors` : ''}`,
  );
}

/**
 * getProduct where no stored answer helps: every request asks for a different product of the 1,000,
 * cycling through all slugs once per answer language. The fast path and the response cache keep at most
 * 1,000 and 500 answers, oldest out first, so cycling the 1,000 slugs alone would find every answer of
 * the second pass on stored; the six languages make the cycle 6,000 distinct requests long, so an answer
 * is gone long before its request comes round again and each request runs the whole resolver path.
 */
export async function coldProductRow(row, area, engine, duration) {
  const getProducts = operationDocument('getProducts');
  const getProduct = operationDocument('getProduct');
  const list = await graphql(engine.url, getProducts, { first: 1000 });
  const slugs = list.data.products.nodes.map((p) => p.slug);
  if (slugs.length !== 1000) throw new Error(`the catalog lists ${slugs.length} products, expected 1,000`);
  const bodies = slugs.map((slug) => JSON.stringify({ query: getProduct, variables: { slug } }));
  let next = 0;
  let wrong = 0;
  const requests = [
    {
      method: 'POST',
      setupRequest: (request) => {
        const i = next++;
        return {
          ...request,
          headers: {
            ...request.headers,
            'accept-language': LANGUAGES[Math.floor(i / bodies.length) % LANGUAGES.length],
          },
          body: bodies[i % bodies.length],
        };
      },
      // An error or a missing product (`product: null`) is a wrong answer, however fast.
      onResponse: (status, text) => {
        if (status === 200 && (!text?.includes('"product":{') || text.includes('"errors":'))) wrong++;
      },
    },
  ];
  const run = async (connections, seconds) => {
    wrong = 0;
    const r = await load({ url: engine.url, requests, connections, duration: seconds });
    return { ...r, errors: r.errors + wrong };
  };
  await run(10, 2);
  const r = await run(50, duration);
  row(
    area,
    'getProduct p99 (1,000 slugs, cold)',
    r.p99,
    'ms',
    '≤ 25',
    r.p99 <= 25 && r.errors === 0 && r.total > 0,
    `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, ${r.errors} errors; ${r.total} requests, each product in each language in turn (no stored answer)`,
  );
}
