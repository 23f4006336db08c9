/**
 * `npm run content:status` in a temporary git repository: a translation is up to date after it is
 * committed with its source, stale once the English file changes in a later commit (or in the working
 * copy), missing when its file does not exist; catalog texts without a translation are listed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionStatus } from '../../src/lib/content/translation-status.ts';

const root = path.resolve(import.meta.dirname, '../..');
let repo: string;
let commitTime = 1_780_000_000;

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  fs.writeFileSync(path.join(repo, file), text);
}

function commit(message: string) {
  commitTime += 60;
  const date = `@${commitTime} +0000`;
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  execFileSync('git', ['add', '-A'], { cwd: repo, env });
  execFileSync('git', ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.test', 'commit', '-qm', message], {
    cwd: repo,
    env,
  });
}

function status(): CollectionStatus[] {
  const out = execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/tsx/dist/cli.mjs'),
      path.join(root, 'scripts/content-status.ts'),
      '--json',
      '--dir',
      'content',
    ],
    { cwd: repo, encoding: 'utf8' },
  );
  return JSON.parse(out) as CollectionStatus[];
}

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
});
