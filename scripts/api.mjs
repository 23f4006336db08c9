// `npm run api`: the commerce engine's GraphQL endpoint alone (src/server/http/standalone.ts).
//
// The engine is TypeScript. Running it through a loader that compiles each file as it is imported (tsx)
// keeps every compiled file and its source map in the process for as long as it runs: about 100 MB of an
// engine's resident memory. So the engine is bundled first — esbuild, well under a second — and the
// bundle runs in this process. Packages stay where npm put them; code loaded on first use (the PDF
// renderer) stays in a chunk of its own, loaded as lazily as from source. The engine finds its SQL
// migrations and other files through the working directory, which npm sets to the project's root.
//
// Each process bundles into a directory of its own under node_modules/.cache/meshfront-api/ (several API
// processes may run side by side on one machine) and removes it when it exits; directories left by
// processes that no longer run are removed at the next start.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const cache = path.join(root, 'node_modules', '.cache', 'meshfront-api');

const running = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};
for (const name of fs.existsSync(cache) ? fs.readdirSync(cache) : []) {
  if (/^\d+$/.test(name) && !running(Number(name))) fs.rmSync(path.join(cache, name), { recursive: true, force: true });
}

const outdir = path.join(cache, String(process.pid));
process.on('exit', () => fs.rmSync(outdir, { recursive: true, force: true }));
await build({
  entryPoints: { standalone: path.join(root, 'src/server/http/standalone.ts') },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  outdir,
  logLevel: 'warning',
});
await import(pathToFileURL(path.join(outdir, 'standalone.js')).href);
