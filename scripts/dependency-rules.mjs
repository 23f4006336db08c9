// `npm run lint:deps`: the rooms of README.md's "Architecture" (.dependency-cruiser.cjs). dependency-cruiser
// reads the .ts, .tsx and .mjs files of src; it cannot parse .astro files, so their imports (frontmatter,
// <script> tags, `import('…')` types) are read here and held to the same rules' paths. Exits 1 on a
// violation and prints one line per violation.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs');

const cruise = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'),
    'src',
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'err',
  ],
  {
    cwd: root,
    stdio: 'inherit',
  },
);

const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
/** A rule's `path`/`pathNot` with `$1`… taken from the `from` match, as dependency-cruiser does. */
const matches = (patterns, file, groups = []) =>
  patterns.some((p) => new RegExp(p.replace(/\$(\d)/g, (_, i) => groups[Number(i)] ?? '')).test(file));

function astroFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.astro'))
    .map((e) => path.join(e.parentPath, e.name));
}

// import … from '…', export … from '…', import '…', import('…')
const IMPORT =
  /\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

const astroViolations = [];
for (const file of astroFiles(path.join(root, 'src'))) {
  const from = path.relative(root, file).split(path.sep).join('/');
  for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith('.')) continue; // packages and virtual modules: not a room
    const to = path
      .relative(root, path.resolve(path.dirname(file), spec))
      .split(path.sep)
      .join('/');
    for (const rule of config.forbidden) {
      if (rule.to.circular !== undefined || !rule.from.path) continue;
      const fromMatch = list(rule.from.path)
        .map((p) => new RegExp(p).exec(from))
        .find(Boolean);
      if (!fromMatch || matches(list(rule.from.pathNot), from)) continue;
      const groups = [...fromMatch];
      if (matches(list(rule.to.path), to, groups) && !matches(list(rule.to.pathNot), to, groups)) {
        astroViolations.push(`  ${rule.severity} ${rule.name}: ${from} → ${to}`);
      }
    }
  }
}
if (astroViolations.length) console.error(`\n.astro imports:\n${astroViolations.join('\n')}\n`);
process.exit(cruise.status === 0 && !astroViolations.length ? 0 : 1);
