// A burst of new connections: `count` TCP connections opened at once, each sending one HTTP/1.1
// request with `Connection: close` and reading the whole answer. Runs in a worker thread of its own
// (`burster()` in api-rows.mjs), so the bench's main thread — its heap full of earlier loads' results and
// their garbage collections — cannot stall the sockets' callbacks and add its pauses to the figures.
//
// The client's work per connection is kept to what the server is measured on: one connect, one write
// of prebuilt request bytes, collecting the answer's chunks until its Content-Length is in (or the
// server closes). Status and body are checked only after the last answer is in, and the worker's own
// CPU time during the burst is reported, so a reader can see the generator was not the one waiting.
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

/** One request as bytes on the wire: POST with a JSON body, closing the connection after the answer. */
function wire(target, { body, headers = {} }) {
  const payload = Buffer.from(JSON.stringify(body));
  const head = [
    `POST ${target.pathname} HTTP/1.1`,
    `Host: ${target.host}`,
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${payload.length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

/** Opens `count` connections in one synchronous loop; resolves once every socket has closed. */
function openAll(target, wires, count, timeoutMs) {
  return new Promise((resolve) => {
    const issuing = performance.now();
    const results = new Array(count);
    const sockets = new Array(count);
    let open = count;
    // One timer for the whole burst rather than one per socket: timers are client work per connection.
    const deadline = setTimeout(() => {
      for (const socket of sockets) socket.destroy(new Error(`no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const r = { ms: Number.NaN, connectMs: Number.NaN, error: null, chunks: [] };
      results[i] = r;
      let received = 0;
      let expected = -1;
      const finish = () => {
        if (Number.isNaN(r.ms)) r.ms = performance.now() - started;
      };
      const socket = net.connect({ host: target.hostname, port: Number(target.port) });
      sockets[i] = socket;
      socket.setNoDelay(true);
      socket.on('connect', () => {
        r.connectMs = performance.now() - started;
        socket.write(wires[i % wires.length]);
      });
      socket.on('data', (chunk) => {
        r.chunks.push(chunk);
        received += chunk.length;
        if (expected < 0) {
          const head = r.chunks.length === 1 ? chunk : Buffer.concat(r.chunks);
          const end = head.indexOf('\r\n\r\n');
          if (end >= 0) {
            const length = /\r\ncontent-length:\s*(\d+)/i.exec(head.subarray(0, end).toString('latin1'));
            // Without a length (chunked) the answer is whole when the server closes.
            expected = length ? end + 4 + Number(length[1]) : Number.POSITIVE_INFINITY;
          }
        }
        if (expected >= 0 && received >= expected) finish();
      });
      socket.on('end', finish);
      socket.on('error', (err) => {
        // A reset after the whole answer is in does not spoil it.
        if (Number.isNaN(r.ms)) r.error ??= err.code ?? err.message;
      });
      socket.on('close', () => {
        if (--open > 0) return;
        clearTimeout(deadline);
        resolve({ results, issueMs });
      });
    }
    const issueMs = performance.now() - issuing;
  });
}

/** What went wrong with one answer, or null: not 200, cut short, not JSON, or a GraphQL error. */
function check(r) {
  if (r.error) return r.error;
  const raw = Buffer.concat(r.chunks);
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return 'no complete answer';
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(raw.subarray(0, 16).toString('latin1'))?.[1];
  if (status !== '200') return `HTTP ${status ?? '?'}`;
  try {
    const body = JSON.parse(raw.subarray(end + 4).toString('utf8'));
    if (body.errors?.length) return String(body.errors[0].message);
    if (!body.data) return 'no data';
  } catch {
    return 'not JSON (chunked or cut short)';
  }
  return null;
}

const { url, requests, timeoutMs } = workerData;
const target = new URL(url);
const wires = requests.map((request) => wire(target, request));
// This thread's CPU time where node has it (23.9+), else the process's (the main thread only waits meanwhile).
const cpuUsage = (before) => (process.threadCpuUsage ? process.threadCpuUsage(before) : process.cpuUsage(before));
// One burst per message, so the thread's start-up is over before the first connection opens.
parentPort.on('message', async ({ count }) => {
  const cpuBefore = cpuUsage();
  const started = performance.now();
  const { results, issueMs } = await openAll(target, wires, count, timeoutMs);
  const wallMs = performance.now() - started;
  const cpu = cpuUsage(cpuBefore);
  const errors = results.map(check);
  parentPort.postMessage({
    latencies: results.filter((_, i) => errors[i] === null).map((r) => r.ms),
    connectLatencies: results.map((r) => r.connectMs).filter((ms) => !Number.isNaN(ms)),
    errors: errors.filter((e) => e !== null),
    issueMs,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
  });
});
