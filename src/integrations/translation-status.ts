/**
 * Which translations are missing or stale (src/lib/content/translation-status.ts decides), with the change
 * times read from git: one `git log` over content/, files changed in the working copy counting as changed
 * now. The build makes the report once and hands it to the site as `virtual:meshfront/translation-status`,
 * so pages and /admin know it where there is no git (the server of a deployment).
 *
 * An English change that leaves the translations correct (a typo, "Colour" → "Color") is not a reason to
 * translate again. Such a commit says so in its message with the trailer `Translations: unaffected`; commits
 * made before that existed are listed in content/translations-unaffected.txt. Either way the commit does not
 * count as a change of the English files it touches (it still counts for the translations it touches).
 *
 * Without the history (no git, a tarball, a shallow clone) the change times are unknown: the report says
 * so, lists the missing translations and no stale ones, and the build goes on. A report made where the
 * history is (`npm run content:status -- --json`) can be handed to such a build with TRANSLATION_STATUS_FILE.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { DEFAULT_LOCALE, LOCALES, type LocaleCode } from '../lib/i18n/locales.ts';
import {
  catalogStatus,
  translationReportSchema,
  translationStatus,
  type CatalogTexts,
  type ContentFile,
  type TranslationReport,
} from '../lib/content/translation-status.ts';

/** The list of past commits whose English changes leave the translations correct, in content/. */
export const UNAFFECTED_LIST = 'translations-unaffected.txt';
/** The commit-message trailer that says the same for a new commit: `Translations: unaffected`. */
const TRAILER_KEY = 'Translations';
const TRAILER_VALUE = 'unaffected';

const TRANSLATION_FILE = /\.[a-z]{2}_[A-Z]{2}\.[a-z]+$/;

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

/**
 * The commits listed in content/translations-unaffected.txt: one commit hash (at least 7 hex digits) per
 * line, optionally followed by a note; `#` starts a comment. Anything else is an error naming the line, so a
 * mangled entry is never quietly ignored.
 */
export function readUnaffectedList(file: string): string[] {
  if (!fs.existsSync(file)) return [];
  const hashes: string[] = [];
  fs.readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = raw.replace(/#.*$/, '').trim();
      if (!line) return;
      const hash = line.split(/\s+/)[0]!;
      if (!/^[0-9a-f]{7,40}$/i.test(hash))
        throw new Error(
          `${path.basename(file)}:${i + 1}: "${hash}" is not a commit hash (7 to 40 hex digits, then an optional note)`,
        );
      hashes.push(hash.toLowerCase());
    });
  return hashes;
}

type History = { files: ContentFile[]; history: TranslationReport['history']; notes: string[] };

/** When each file under `dir` last changed, from git, skipping commits that leave the translations correct. */
function changeTimes(dir: string, files: readonly string[]): History {
  const unknown = (note: string): History => ({
    files: files.map((p) => ({ path: p, changedAt: null })),
    history: 'unknown',
    notes: [note],
  });
  const root = git(dir, ['rev-parse', '--show-toplevel'])?.trim();
  if (!root) return unknown('No git history here (not a git checkout, or git is not installed).');
  if (git(root, ['rev-parse', '--is-shallow-repository'])?.trim() === 'true')
    return unknown('The git history is incomplete (a shallow clone): run `git fetch --unshallow`.');
  let listed: string[];
  try {
    listed = readUnaffectedList(path.join(dir, UNAFFECTED_LIST));
  } catch (err) {
    return unknown(`${(err as Error).message}. Until it is corrected, stale translations cannot be told.`);
  }
  const seen = new Set<string>();
  const prefix = path.relative(root, dir).split(path.sep).join('/');
  const under = (p: string) => (prefix ? p.slice(prefix.length + 1) : p);
  const log = git(root, [
    'log',
    `--format=@%H %ct %(trailers:key=${TRAILER_KEY},valueonly,separator=%x2C)`,
    '--name-only',
    '--',
    prefix || '.',
  ]);
  if (log === null) return unknown('git could not read the history of content/.');
  const committed = new Map<string, number>();
  // An English file whose every commit is skipped still has a time: its oldest commit (when it was added).
  const oldest = new Map<string, number>();
  let when = 0;
  let unaffected = false;
  for (const line of log.split('\n')) {
    if (line.startsWith('@')) {
      const [hash = '', time = '', ...trailer] = line.slice(1).split(' ');
      when = Number(time) * 1000;
      const byList = listed.filter((h) => hash.startsWith(h));
      for (const h of byList) seen.add(h);
      unaffected =
        byList.length > 0 ||
        trailer
          .join(' ')
          .split(',')
          .some((v) => v.trim().toLowerCase() === TRAILER_VALUE);
      continue;
    }
    if (!line) continue;
    const file = under(line);
    if (unaffected && !TRANSLATION_FILE.test(file)) oldest.set(file, when);
    else if (!committed.has(file)) committed.set(file, when);
  }
  const notes = listed
    .filter((h) => !seen.has(h))
    .map((h) => `${UNAFFECTED_LIST} lists ${h}, which is not a commit that changed content/.`);
  const dirty = new Set<string>();
  for (const line of (git(root, ['status', '--porcelain', '-uall', '--', prefix || '.']) ?? '').split('\n'))
    if (line.length > 3) dirty.add(under(line.slice(3).replace(/^.* -> /, '')));
  const now = Date.now();
  return {
    files: files.map((p) => ({
      path: p,
      changedAt: dirty.has(p) ? now : (committed.get(p) ?? oldest.get(p) ?? null),
    })),
    history: 'git',
    notes,
  };
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

/** The translation status of the content directory `dir`, for every locale but English. */
export function readTranslationReport(dir: string): TranslationReport {
  const locales = LOCALES.map((l) => l.code).filter((c): c is LocaleCode => c !== DEFAULT_LOCALE.code);
  const { files, history, notes } = changeTimes(dir, listFiles(dir));
  return {
    generatedAt: Date.now(),
    history,
    notes,
    collections: [...translationStatus(files, locales), ...catalogStatus(catalogEntries(dir), locales)],
  };
}

/** A report written by `npm run content:status -- --json`, checked before the build relies on it. */
export function readReportFile(file: string): TranslationReport {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`TRANSLATION_STATUS_FILE ${file} cannot be read as JSON: ${(err as Error).message}`);
  }
  const parsed = translationReportSchema.safeParse(data);
  if (!parsed.success)
    throw new Error(
      `TRANSLATION_STATUS_FILE ${file} is not a translation report (npm run content:status -- --json): ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`)
        .join('; ')}`,
    );
  return parsed.data;
}

const MODULE_ID = 'virtual:meshfront/translation-status';

/** The report the build uses: the given file, else read from git; a failure to read git is "unknown". */
export function buildTranslationReport(
  root: string,
  statusFile = process.env.TRANSLATION_STATUS_FILE,
): TranslationReport {
  if (statusFile?.trim()) return readReportFile(path.resolve(root, statusFile.trim()));
  const dir = path.join(root, 'content');
  try {
    return readTranslationReport(dir);
  } catch (err) {
    // The status is for editors and operators: content it cannot read is named, and the build goes on.
    return {
      generatedAt: Date.now(),
      history: 'unknown',
      notes: [`The translation status could not be made: ${(err as Error).message}`],
      collections: [],
    };
  }
}

export default function translationStatusIntegration(): AstroIntegration {
  return {
    name: 'meshfront:translation-status',
    hooks: {
      'astro:config:setup': ({ config, updateConfig, logger }) => {
        const report = buildTranslationReport(fileURLToPath(config.root));
        for (const note of report.notes) logger.warn(`Translation status: ${note}`);
        if (report.history === 'unknown') logger.warn('Translation status: stale translations are shown as unknown.');
        const resolved = `\0${MODULE_ID}`;
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'meshfront:translation-status',
                resolveId: (id: string) => (id === MODULE_ID ? resolved : undefined),
                load: (id: string) => (id === resolved ? `export default ${JSON.stringify(report)};` : undefined),
              },
            ],
          },
        });
      },
    },
  };
}
