/**
 * npm run content:status — which translations of the guides, support articles, policies, company pages and
 * the catalog are missing or stale, per locale (src/lib/content/translation-status.ts decides).
 *
 *   npm run content:status               the table, then every missing or stale file
 *   npm run content:status -- --summary  the table only
 *   npm run content:status -- --json     everything as JSON (for scripts)
 *   npm run content:status -- --dir D    another content directory (default: ./content)
 *
 * When a file last changed is read from git (one `git log` over the directory); files changed in the working
 * copy count as changed now. Commits marked `Translations: unaffected`, and those listed in
 * content/translations-unaffected.txt, do not count as changes of the English files
 * (src/integrations/translation-status.ts). Without the git history only missing translations are listed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_LOCALE, LOCALES, type LocaleCode } from '../src/lib/i18n/locales.ts';
import type { CollectionStatus } from '../src/lib/content/translation-status.ts';
import { readTranslationReport } from '../src/integrations/translation-status.ts';

function main(argv: string[]): number {
  const dirFlag = argv.indexOf('--dir');
  const dir = path.resolve(dirFlag >= 0 ? (argv[dirFlag + 1] ?? '') : 'content');
  if (!fs.existsSync(dir)) {
    console.error(`content:status: ${dir} does not exist`);
    return 2;
  }
  const locales = LOCALES.map((l) => l.code).filter((c): c is LocaleCode => c !== DEFAULT_LOCALE.code);
  const report = readTranslationReport(dir);
  for (const note of report.notes) console.error(`content:status: ${note}`);
  if (report.history === 'unknown') console.error('content:status: stale translations cannot be told here.');
  if (argv.includes('--json')) {
    console.log(JSON.stringify(report, null, 2));
    return 0;
  }
  printTable(report.collections, locales, report.history === 'git');
  if (!argv.includes('--summary')) printDetails(report.collections);
  return 0;
}

function printTable(status: CollectionStatus[], locales: readonly LocaleCode[], historyKnown: boolean): void {
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
  // Without history an existing translation may be stale as well: it is only known to be there.
  console.log(
    historyKnown
      ? 'Translations up to date (of the English files):\n'
      : 'Translations present (of the English files; whether they are up to date is unknown):\n',
  );
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
