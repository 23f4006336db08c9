/**
 * Engine processes of their own for the tests that need more than one engine on one PostgreSQL database
 * (tests/fixtures/engine-process.ts prints `LISTENING <port>` once it serves), and plain HTTP GraphQL calls
 * to them with the `woocommerce-session` token each answer hands back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const TSX = path.resolve(import.meta.dirname, '../../node_modules/.bin/tsx');
const ENGINE_PROCESS = path.resolve(import.meta.dirname, '../fixtures/engine-process.ts');

/** The settings every such process shares besides its database's. */
export const PROCESS_ENV = {
  SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
  SESSION_ISSUER: 'http://meshfront.test',
  DATABASE_POOL_SIZE: '10',
  ORDER_SWEEP_INTERVAL_MS: '0',
};

/** Starts an engine process with `env`; resolves with its port. The child is added to `children` to stop later. */
export function startEngineProcess(env: Record<string, string>, children: ChildProcess[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [ENGINE_PROCESS], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`engine process exited (${code}): ${err.slice(-2000)}`)));
  });
}

/** One GraphQL request to the process on `port`, with the session token (when there is one). */
export async function postGraphql(
  port: number,
  query: string,
  variables: Record<string, unknown>,
  token: string | null,
) {
  const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { 'woocommerce-session': `Session ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return {
    token: r.headers.get('woocommerce-session') ?? token,
    body: (await r.json()) as { data?: any; errors?: { message: string }[] },
  };
}
