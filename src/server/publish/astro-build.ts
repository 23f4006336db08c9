/**
 * The real site build: `astro build --outDir <dir>` in a child process. The pages read the catalog over
 * HTTP from a loopback GraphQL endpoint served by this process's engine (COMMERCE_GRAPHQL_URL), because
 * an embedded PGlite database can be open in one process only, and it is open here. An explicitly
 * configured COMMERCE_GRAPHQL_URL (a remote WooCommerce or engine) is kept.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ServerConfig } from '../config.ts';
import type { Engine } from '../engine/index.ts';
import { createMeshfrontYoga } from '../http/yoga.ts';

export type BuildContext = { log: (line: string) => void; signal: AbortSignal };
export type SiteBuilder = (outDir: string, context: BuildContext) => Promise<void>;

export function astroSiteBuilder(deps: {
  engine: Engine;
  config: ServerConfig;
  projectDir: string;
  cacheDir: string;
  env?: NodeJS.ProcessEnv;
}): SiteBuilder {
  return async (outDir, { log, signal }) => {
    const astroBin = path.join(deps.projectDir, 'node_modules', 'astro', 'bin', 'astro.mjs');
    if (!fs.existsSync(astroBin))
      throw new Error(`cannot build: ${astroBin} is missing (set MESHFRONT_PROJECT_DIR to the site's source tree)`);
    const env = { ...(deps.env ?? process.env) };
    let loopback: http.Server | null = null;
    if (!env.COMMERCE_GRAPHQL_URL) {
      const yoga = createMeshfrontYoga(async () => deps.engine, deps.config);
      loopback = http.createServer(yoga);
      await new Promise<void>((resolve, reject) => loopback!.once('error', reject).listen(0, '127.0.0.1', resolve));
      env.COMMERCE_GRAPHQL_URL = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}/graphql`;
    }
    env.ASTRO_CACHE_DIR = deps.cacheDir;
    try {
      await new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, [astroBin, 'build', '--outDir', outDir], {
          cwd: deps.projectDir,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const lines = (chunk: Buffer) =>
          chunk
            .toString('utf8')
            .split(/\r?\n/)
            .filter((l) => l.trim())
            .forEach((l) => {
              log(l.replace(/\x1b\[[0-9;]*m/g, ''));
            });
        child.stdout.on('data', lines);
        child.stderr.on('data', lines);
        const abort = () => child.kill('SIGTERM');
        signal.addEventListener('abort', abort, { once: true });
        child.once('error', reject);
        child.once('close', (code, sig) => {
          signal.removeEventListener('abort', abort);
          if (code === 0) resolve();
          else
            reject(
              new Error(
                signal.aborted
                  ? // Why it was stopped: it took too long, or the publish lost its lease.
                    ((signal.reason as Error | undefined)?.message ?? 'the build was stopped')
                  : `astro build failed (${sig ? `signal ${sig}` : `exit code ${code}`})`,
              ),
            );
        });
      });
    } finally {
      await new Promise<void>((resolve) => (loopback ? loopback.close(() => resolve()) : resolve()));
    }
  };
}
