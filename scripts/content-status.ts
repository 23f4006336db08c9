/**
 * npm run content:status — which translations of the guides, support articles, policies, company pages and
 * the catalog are missing or stale, per locale (src/lib/content/translation-status.ts decides).
 *
 *   npm run content:status               the table, then every missing or stale file
 *   npm run content:status -- --summary  the table only
 *   npm run content:status -- --json     everything as JSON (for scripts)
 *   npm run content:status -- --dir D    another content directory (default: ./content)
 *
 * When a file last changed is read from git (one `git log` over the directory); files changed in the
 * working copy count as changed now, and without git the file's modification time is used.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_LOCALE, LOCALES, type LocaleCode } from '../src/lib/i18n/locales.ts';
import {
  catalogStatus,
  translationStatus,
  type CatalogTexts,
  type CollectionStatus,
  type ContentFile,
} from '../src/lib/content/translation-status.ts';

function listFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return listFiles(full, base);
    return [path.relative(base, full).split(path.sep).join('/')];
  });
}

function git(cwd: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 << 20,
    });
  } catch {
    return null;
  }
}

/** When each file under `dir` last changed: its newest commit, now for working-copy changes, else its mtime. */
function changeTimes(dir: string, files: readonly string[]): ContentFile[] {
  const root = git(dir, ['rev-parse', '--show-toplevel'])?.trim();
  const committed = new Map<string, number>();
  const dirty = new Set<string>();
  if (root) {
    const prefix = path.relative(root, dir).split(path.sep).join('/');
    const under = (p: string) => (prefix ? p.slice(prefix.length + 1) : p);
    let when = 0;
    for (const line of (git(root, ['log', '--format=@%ct', '--name-only', '--', prefix || '.']) ?? '').split('\n')) {
      if (line.startsWith('@')) when = Number(line.slice(1)) * 1000;
      else if (line && !committed.has(under(line))) committed.set(under(line), when);
    }
    for (const line of (git(root, ['status', '--porcelain', '-uall', '--', prefix || '.']) ?? '').split('\n'))
      if (line.length > 3) dirty.add(under(line.slice(3).replace(/^.* -> /, '')));
  }
  const now = Date.now();
  return files.map((p) => ({
    path: p,
    changedAt: dirty.has(p) ? now : (committed.get(p) ?? fs.statSync(path.join(dir, p)).mtimeMs),
  }));
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

type Translatable = { name?: string; shortDescription?: string; description?: string; translations?: never };

/** Products (name, short and long description) and categories (name, description) of content/catalog. */
function catalogEntries(dir: string): CatalogTexts[] {
  const catalog = path.join(dir, 'catalog');
  if (!fs.existsSync(catalog)) return [];
  const products = fs.existsSync(path.join(catalog, 'products'))
    ? fs
        .readdirSync(path.join(catalog, 'products'))
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => {
          const p = readJson(path.join(catalog, 'products', f)) as Translatable;
          return {
            file: `catalog/products/${f}`,
            english: { name: p.name, shortDescription: p.shortDescription, description: p.description },
            translations: p.translations,
          };
        })
    : [];
  const categoriesFile = path.join(catalog, 'categories.json');
  const categories = fs.existsSync(categoriesFile)
    ? (readJson(categoriesFile) as (Translatable & { slug: string })[]).map((c) => ({
        file: `catalog/categories.json#${c.slug}`,
        english: { name: c.name, description: c.description?.replace(/<[^>]*>/g, '') },
        translations: c.translations,
      }))
    : [];
  return [...products, ...categories];
}

function main(argv: string[]): number {
  const dirFlag = argv.indexOf('--dir');
  const dir = path.resolve(dirFlag >= 0 ? (argv[dirFlag + 1] ?? '') : 'content');
  if (!fs.existsSync(dir)) {
    console.error(`content:status: ${dir} does not exist`);
    return 2;
  }
  const locales = LOCALES.map((l) => l.code).filter((c): c is LocaleCode => c !== DEFAULT_LOCALE.code);
  const files = changeTimes(dir, listFiles(dir));
  const status = [...translationStatus(files, locales), ...catalogStatus(catalogEntries(dir), locales)];
  if (argv.includes('--json')) {
    console.log(JSON.stringify(status, null, 2));
    return 0;
  }
  printTable(status, locales);
  if (!argv.includes('--summary')) printDetails(status);
  return 0;
}

function printTable(status: CollectionStatus[], locales: readonly LocaleCode[]): void {
  const collections = [...new Set(status.map((s) => s.collection))];
  const cell = (s: CollectionStatus | undefined) => {
    if (!s) return '';
    const problems = [s.stale.length && `${s.stale.length} stale`, s.missing.length && `${s.missing.length} missing`]
      .filter(Boolean)
      .join(', ');
    return problems ? `${s.upToDate}/${s.total} (${problems})` : `${s.upToDate}/${s.total} ✓`;
  };
  const rows = [
    ['', ...locales],
    ...collections.map((c) => [
      c,
      ...locales.map((l) => cell(status.find((s) => s.collection === c && s.locale === l))),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log('Translations up to date (of the English files):\n');
  for (const r of rows) console.log(r.map((v, i) => v.padEnd(widths[i]!)).join('  '));
}

function printDetails(status: CollectionStatus[]): void {
  for (const s of status) {
    const entries = [...s.stale, ...s.missing];
    if (entries.length === 0) continue;
    console.log(`\n${s.locale} ${s.collection}:`);
    for (const e of entries) console.log(`  ${e.state.padEnd(7)} ${e.translation}`);
  }
}

process.exitCode = main(process.argv.slice(2));
