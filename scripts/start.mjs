// `npm start`: build the site when the build is missing or older than its sources, then serve it — in
// production mode (trusted documents, no introspection or GraphiQL, a bot check, secrets generated into the
// data directory) unless NODE_ENV says otherwise. `npm run dev` is the development server.
// MESHFRONT_DIST_DIR serves a build made elsewhere instead (never built here). The serving itself, and
// what SIGTERM and SIGINT do (finish requests, close the database), is scripts/serve.mjs's serveSite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

process.env.NODE_ENV ||= 'production';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const SOURCES = ['src', 'content', 'locales', 'public', 'astro.config.mjs', 'tailwind.config.cjs', 'package-lock.json'];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

function buildIsStale() {
  if (!fs.existsSync(path.join(root, 'dist', 'server', 'entry.mjs')) || !fs.existsSync(stamp)) return true;
  const built = fs.statSync(stamp).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

if (!process.env.MESHFRONT_DIST_DIR && !process.argv.includes('--no-build') && buildIsStale()) {
  console.log('[start] build missing or stale: building the site…');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  fs.writeFileSync(stamp, new Date().toISOString());
}

const { serveSite } = await import('./serve.mjs');
await serveSite({
  distDir: path.resolve(process.env.MESHFRONT_DIST_DIR ?? path.join(root, 'dist')),
  port: Number(process.env.PORT ?? 4321),
  host: process.env.HOST ?? '0.0.0.0',
});
