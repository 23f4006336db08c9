/**
 * `npm run content:status` in a temporary git repository: a translation is up to date after it is
 * committed with its source, stale once the English file changes in a later commit (or in the working
 * copy), missing when its file does not exist; catalog texts without a translation are listed. An English
 * change marked as leaving the translations correct (the `Translations: unaffected` trailer, or the commit
 * listed in content/translations-unaffected.txt) makes nothing stale; without the git history (a copy
 * without .git, a shallow clone) stale translations are "unknown" and the missing ones are still listed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sourceRoute,
  staleEntry,
  type CollectionStatus,
  type TranslationReport,
} from '../../src/lib/content/translation-status.ts';
import { buildTranslationReport } from '../../src/integrations/translation-status.ts';

const root = path.resolve(import.meta.dirname, '../..');
let repo: string;
let commitTime = 1_780_000_000;

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  fs.writeFileSync(path.join(repo, file), text);
}

/** Commits everything; returns the commit's hash. */
function commit(message: string, cwd = repo): string {
  commitTime += 60;
  const date = `@${commitTime} +0000`;
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  execFileSync('git', ['add', '-A'], { cwd, env });
  execFileSync('git', ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.test', 'commit', '-qm', message], {
    cwd,
    env,
  });
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
}

function report(cwd = repo): TranslationReport {
  const out = execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/tsx/dist/cli.mjs'),
      path.join(root, 'scripts/content-status.ts'),
      '--json',
      '--dir',
      'content',
    ],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return JSON.parse(out) as TranslationReport;
}

const status = (cwd = repo): CollectionStatus[] => report(cwd).collections;

const of = (all: CollectionStatus[], collection: string, locale: string) =>
  all.find((s) => s.collection === collection && s.locale === locale)!;

beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'content-status-'));
  execFileSync('git', ['init', '-q'], { cwd: repo });
  write('content/guides/rak.mdx', '---\ntitle: "Set up your RAK"\n---\n\nStep one.\n');
  write('content/guides/rak.de_DE.mdx', '---\ntitle: "RAK einrichten"\n---\n\nSchritt eins.\n');
  write('content/guides/nebra.mdx', '---\ntitle: "Set up your Nebra"\n---\n');
  write(
    'content/catalog/products/cap.json',
    JSON.stringify({
      name: 'Cap',
      shortDescription: '<p>A cap.</p>',
      description: '',
      translations: { de_DE: { name: 'Kappe', shortDescription: '<p>Eine Kappe.</p>' } },
    }),
  );
  commit('Guides and a product');
});
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

/** A fresh repository for one test, with one English guide and its German translation committed. */
function scratchRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-status-'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const put = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  put('content/pages/media-kit.mdx', '---\ntitle: "Media kit"\n---\n\nLogo files in colour.\n');
  put('content/pages/media-kit.de_DE.mdx', '---\ntitle: "Pressematerial"\n---\n\nLogodateien in Farbe.\n');
  commit('Media kit', dir);
  return dir;
}

describe('content:status', () => {
  it('counts a translation committed with its source as up to date and names the missing ones', () => {
    const guides = of(status(), 'guides', 'de_DE');
    expect(guides).toMatchObject({ total: 2, upToDate: 1, stale: [] });
    expect(guides.missing.map((m) => m.translation)).toEqual(['guides/nebra.de_DE.mdx']);
    expect(of(status(), 'guides', 'fr_FR').missing).toHaveLength(2);
  });

  it('reports the translation as stale once its English source changes after it', () => {
    write('content/guides/rak.mdx', '---\ntitle: "Set up your RAK"\n---\n\nStep one, now with a checkpoint.\n');
    // Changed in the working copy: stale already.
    expect(of(status(), 'guides', 'de_DE').stale.map((s) => s.translation)).toEqual(['guides/rak.de_DE.mdx']);
    commit('A checkpoint in the English RAK guide');
    expect(of(status(), 'guides', 'de_DE').stale.map((s) => s.translation)).toEqual(['guides/rak.de_DE.mdx']);
    write('content/guides/rak.de_DE.mdx', '---\ntitle: "RAK einrichten"\n---\n\nSchritt eins, mit Kontrollpunkt.\n');
    commit('The German RAK guide follows');
    expect(of(status(), 'guides', 'de_DE')).toMatchObject({ upToDate: 1, stale: [] });
  });

  it('lists catalog entries with English texts that have no translation', () => {
    const all = status();
    // The empty English description needs no translation; the German name and short description exist.
    expect(of(all, 'catalog', 'de_DE')).toMatchObject({ total: 1, upToDate: 1, missing: [] });
    expect(of(all, 'catalog', 'fr_FR').missing.map((m) => m.translation)).toEqual([
      'catalog/products/cap.json → translations.fr_FR.name/shortDescription',
    ]);
  });

  it('reports the date of the English change with each stale translation', () => {
    const all = report();
    expect(all.history).toBe('git');
    write('content/guides/nebra.mdx', '---\ntitle: "Set up your Nebra"\n---\n\nNow with a first step.\n');
    write('content/guides/nebra.de_DE.mdx', '---\ntitle: "Nebra einrichten"\n---\n');
    commit('The Nebra guide in German');
    write('content/guides/nebra.mdx', '---\ntitle: "Set up your Nebra"\n---\n\nNow with two steps.\n');
    commit('A second step in the English Nebra guide');
    const stale = of(status(), 'guides', 'de_DE').stale;
    expect(stale).toEqual([
      {
        source: 'guides/nebra.mdx',
        translation: 'guides/nebra.de_DE.mdx',
        state: 'stale',
        sourceChangedAt: commitTime * 1000,
      },
    ]);
  });
});

describe('content:status with English changes that leave the translations correct', () => {
  it('skips a commit with the trailer "Translations: unaffected", and counts the next real change', () => {
    const dir = scratchRepo();
    try {
      fs.writeFileSync(
        path.join(dir, 'content/pages/media-kit.mdx'),
        '---\ntitle: "Media kit"\n---\n\nLogo files in color.\n',
      );
      // Changed in the working copy: stale until the commit says the change leaves translations alone.
      expect(of(status(dir), 'pages', 'de_DE').stale).toHaveLength(1);
      commit('One spelling of color\n\nTranslations: unaffected', dir);
      expect(of(status(dir), 'pages', 'de_DE')).toMatchObject({ upToDate: 1, stale: [], missing: [] });
      fs.writeFileSync(
        path.join(dir, 'content/pages/media-kit.mdx'),
        '---\ntitle: "Media kit"\n---\n\nLogo files in color, and product photos.\n',
      );
      commit('Product photos in the media kit\n\nTranslations: affected', dir);
      expect(of(status(dir), 'pages', 'de_DE').stale.map((s) => s.translation)).toEqual(['pages/media-kit.de_DE.mdx']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('skips the past commits listed in content/translations-unaffected.txt, and names a malformed line', () => {
    const dir = scratchRepo();
    try {
      fs.writeFileSync(
        path.join(dir, 'content/pages/media-kit.mdx'),
        '---\ntitle: "Media kit"\n---\n\nLogo files in color.\n',
      );
      const spelling = commit('One spelling of color', dir);
      expect(of(status(dir), 'pages', 'de_DE').stale).toHaveLength(1);
      const list = path.join(dir, 'content/translations-unaffected.txt');
      fs.writeFileSync(list, `# spelling only\n${spelling.slice(0, 10)}  colour -> color\n`);
      const listed = report(dir);
      expect(listed.history).toBe('git');
      expect(listed.notes).toEqual([]);
      expect(of(listed.collections, 'pages', 'de_DE')).toMatchObject({ upToDate: 1, stale: [] });

      // A hash that is in no content commit is named (a typo in the list would otherwise go unnoticed).
      fs.writeFileSync(list, `${spelling}\nabcdef1234\n`);
      expect(report(dir).notes).toEqual([
        'translations-unaffected.txt lists abcdef1234, which is not a commit that changed content/.',
      ]);

      fs.writeFileSync(list, `${spelling}\nnot-a-hash colour\n`);
      const broken = report(dir);
      expect(broken.history).toBe('unknown');
      expect(broken.notes[0]).toContain('translations-unaffected.txt:2: "not-a-hash" is not a commit hash');
      expect(of(broken.collections, 'pages', 'de_DE')).toMatchObject({ total: 1, upToDate: 1, stale: [] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('content:status without the git history', () => {
  it('says the history is unknown and still lists missing translations, in a copy without git and in a shallow clone', () => {
    const dir = scratchRepo();
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'content-status-copy-'));
    try {
      fs.writeFileSync(path.join(dir, 'content/pages/about.mdx'), '---\ntitle: "About"\n---\n');
      commit('About page', dir);
      fs.writeFileSync(
        path.join(dir, 'content/pages/media-kit.mdx'),
        '---\ntitle: "Media kit"\n---\n\nA new paragraph.\n',
      );
      commit('A new paragraph in the media kit', dir);
      expect(of(status(dir), 'pages', 'de_DE').stale).toHaveLength(1);

      fs.cpSync(path.join(dir, 'content'), path.join(copy, 'content'), { recursive: true });
      const tarball = report(copy);
      expect(tarball.history).toBe('unknown');
      expect(tarball.notes[0]).toMatch(/not a git checkout/);
      expect(of(tarball.collections, 'pages', 'de_DE')).toMatchObject({ total: 2, upToDate: 1, stale: [] });
      expect(of(tarball.collections, 'pages', 'de_DE').missing.map((m) => m.translation)).toEqual([
        'pages/about.de_DE.mdx',
      ]);

      const shallow = path.join(copy, 'shallow');
      execFileSync('git', ['clone', '-q', '--depth', '1', `file://${dir}`, shallow]);
      const clone = report(shallow);
      expect(clone.history).toBe('unknown');
      expect(clone.notes[0]).toMatch(/shallow clone/);
      expect(of(clone.collections, 'pages', 'de_DE')).toMatchObject({ upToDate: 1, stale: [] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('the status on the site', () => {
  it("finds a page's stale entry by its file as Astro names it, and the English page of each kind of file", () => {
    const entry = {
      source: 'guides/rak.mdx',
      translation: 'guides/rak.de_DE.mdx',
      state: 'stale' as const,
      sourceChangedAt: 1,
    };
    const report: TranslationReport = {
      generatedAt: 2,
      history: 'git',
      notes: [],
      collections: [{ collection: 'guides', locale: 'de_DE', total: 1, upToDate: 0, missing: [], stale: [entry] }],
    };
    expect(staleEntry(report, 'content/guides/rak.de_DE.mdx')).toEqual(entry);
    expect(staleEntry(report, 'guides/rak.de_DE.mdx')).toEqual(entry);
    expect(staleEntry(report, 'content/guides/rak.fr_FR.mdx')).toBeUndefined();
    expect(
      staleEntry({ ...report, history: 'unknown', collections: [] }, 'content/guides/rak.de_DE.mdx'),
    ).toBeUndefined();

    expect(sourceRoute('guides/rak.mdx', '/meshfront-os')).toBe('/guides/rak');
    expect(sourceRoute('support/troubleshooting/led-codes.mdx', '/meshfront-os')).toBe(
      '/support/troubleshooting/led-codes',
    );
    expect(sourceRoute('support/gateways/_category.yaml', '/meshfront-os')).toBe('/support/gateways');
    expect(sourceRoute('support/_index.mdx', '/meshfront-os')).toBe('/support');
    expect(sourceRoute('policies/privacy-policy.mdx', '/meshfront-os')).toBe('/policies/privacy-policy');
    expect(sourceRoute('pages/media-kit.mdx', '/meshfront-os')).toBe('/media-kit');
    expect(sourceRoute('pages/meshfront-os.mdx', '/acme-os')).toBe('/acme-os');
    expect(sourceRoute('catalog/products/cap.json', '/meshfront-os')).toBeNull();
  });
});

describe('the status a build is given (TRANSLATION_STATUS_FILE)', () => {
  it('takes a report made by content:status, and refuses a file that is not one, naming it', () => {
    const dir = scratchRepo();
    try {
      fs.writeFileSync(
        path.join(dir, 'content/pages/media-kit.mdx'),
        '---\ntitle: "Media kit"\n---\n\nA new paragraph.\n',
      );
      commit('A new paragraph in the media kit', dir);
      const file = path.join(dir, 'status.json');
      fs.writeFileSync(file, JSON.stringify(report(dir)));
      const given = buildTranslationReport(os.tmpdir(), file);
      expect(given.history).toBe('git');
      expect(of(given.collections, 'pages', 'de_DE').stale.map((s) => s.translation)).toEqual([
        'pages/media-kit.de_DE.mdx',
      ]);

      fs.writeFileSync(file, JSON.stringify({ history: 'git', collections: 'none' }));
      expect(() => buildTranslationReport(os.tmpdir(), file)).toThrow(
        /^TRANSLATION_STATUS_FILE .*status\.json is not a translation report \(npm run content:status -- --json\): generatedAt/,
      );
      fs.writeFileSync(file, '{');
      expect(() => buildTranslationReport(os.tmpdir(), file)).toThrow(/status\.json cannot be read as JSON/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
