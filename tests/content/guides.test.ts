/**
 * Content checks for the gateway onboarding guides in content/guides/<model>.mdx.
 *
 * English sources (no locale suffix) must have exactly the agreed frontmatter, the required H2
 * sections in order, a **Checkpoint:** in every step, troubleshooting by symptom, and internal
 * links only to routes the site builds. Translations (<model>.<locale>.mdx) are checked for a
 * valid frontmatter and an English source. Runs without Astro (plain fs + js-yaml), so a failure
 * names the exact file and problem.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import yaml from 'js-yaml';
import { guide as guideSchema } from '../../src/lib/content/schemas';
import { FIXED_SUPPORT_IDS } from './linked-support-articles.ts';
import { ALLOWED_PAGES, FRONTMATTER_FIELDS, REQUIRED_H2 } from './guide-rules.ts';

const ROOT = resolve(__dirname, '../..');
const GUIDES = join(ROOT, 'content', 'guides');

const LOCALE_SUFFIX = /\.([a-z]{2}_[A-Z]{2})\.mdx$/;

const DIFFICULTIES = ['easy', 'moderate', 'advanced'];
const FLASH_METHODS = ['sd-card', 'usb-boot', 'emmc', 'network'];

/** The only support article ids guides may reference (frontmatter and links). */
const SUPPORT_IDS: readonly string[] = FIXED_SUPPORT_IDS;

/** Vendors (or models) that must each have at least one guide; matched against "vendor model". */
const REQUIRED_VENDORS = [
  'Dusun',
  'Heltec',
  'Bobcat',
  'Nebra Indoor',
  'Nebra Outdoor',
  'Linxdot',
  'RAK',
  'Milesight',
  'Dragino',
  'Kerlink',
  'Pisces',
  'SenseCAP',
  'Sync Robotics',
  'MNTD',
  'Browan',
  'Controllino',
  'Cotx',
  'Finestra',
  'Meshfront',
];

interface ParsedGuide {
  file: string;
  slug: string;
  locale: string | null;
  rawFrontmatter: string;
  data: Record<string, unknown>;
  body: string;
}

function parse(file: string): ParsedGuide {
  const text = readFileSync(join(GUIDES, file), 'utf8').replace(/\r\n/g, '\n');
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`${file}: no YAML frontmatter block`);
  const data = yaml.load(m[1]) as Record<string, unknown>;
  const locale = LOCALE_SUFFIX.exec(file)?.[1] ?? null;
  const slug = file.replace(LOCALE_SUFFIX, '').replace(/\.mdx$/, '');
  return { file, slug, locale, rawFrontmatter: m[1], data: data ?? {}, body: m[2] };
}

/** The body without fenced code blocks, so headings and links inside code are ignored. */
function withoutCode(body: string): string {
  return body.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

function headings(body: string, level: number): string[] {
  const re = new RegExp(`^${'#'.repeat(level)} (.+?)\\s*#*\\s*$`, 'gm');
  return [...withoutCode(body).matchAll(re)].map((x) => x[1].trim());
}

/** Splits the body into H2 sections: heading text -> section content (up to the next H2). */
function sections(body: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = withoutCode(body).split(/^## /m);
  for (const part of parts.slice(1)) {
    const nl = part.indexOf('\n');
    const title = (nl === -1 ? part : part.slice(0, nl)).trim();
    out.set(title, nl === -1 ? '' : part.slice(nl + 1));
  }
  return out;
}

/** The anchor id a heading gets (GitHub-style slug, as rehype-slug / Astro produce). */
function anchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/[*_`]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

function links(body: string): string[] {
  const src = withoutCode(body);
  const md = [...src.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((x) => x[1]);
  const html = [...src.matchAll(/\bhref=["']([^"']+)["']/g)].map((x) => x[1]);
  return [...md, ...html];
}

const allFiles = existsSync(GUIDES)
  ? readdirSync(GUIDES)
      .filter((f) => f.endsWith('.mdx'))
      .sort()
  : [];
const english = allFiles.filter((f) => !LOCALE_SUFFIX.test(f)).map(parse);
const translations = allFiles.filter((f) => LOCALE_SUFFIX.test(f)).map(parse);
const slugs = new Set(english.map((g) => g.slug));

describe('guide collection', () => {
  it('has at least 28 English guides', () => {
    expect(english.length).toBeGreaterThanOrEqual(28);
  });

  it('covers every required vendor and model', () => {
    const haystack = english.map((g) => `${g.data.vendor} ${g.data.model}`.toLowerCase());
    const missing = REQUIRED_VENDORS.filter((v) => !haystack.some((h) => h.includes(v.toLowerCase())));
    expect(missing, `no guide for: ${missing.join(', ')}`).toEqual([]);
  });

  it('uses kebab-case file names', () => {
    const bad = english.filter((g) => !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(g.slug)).map((g) => g.file);
    expect(bad).toEqual([]);
  });

  it('gives every guide a unique position in the model picker, company gateways first', () => {
    const orders = english.map((g) => g.data.order as number);
    expect(new Set(orders).size, 'duplicate order values').toBe(orders.length);
    const own = english.filter((g) => g.data.vendor === 'Meshfront').map((g) => g.data.order as number);
    const others = english.filter((g) => g.data.vendor !== 'Meshfront').map((g) => g.data.order as number);
    expect(own.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...own)).toBeLessThan(Math.min(...others));
  });

  it('has no duplicate models', () => {
    const models = english.map((g) => String(g.data.model).toLowerCase());
    expect(new Set(models).size).toBe(models.length);
  });
});

describe.each(english.map((g) => [g.file, g] as const))('%s', (_file, g) => {
  const h2 = headings(g.body, 2);
  const secs = sections(g.body);

  it('has exactly the agreed frontmatter fields', () => {
    expect(Object.keys(g.data).sort()).toEqual([...FRONTMATTER_FIELDS].sort());
  });

  it('matches the guide schema', () => {
    const r = guideSchema.safeParse(g.data);
    expect(r.success, r.success ? '' : JSON.stringify(r.error.issues)).toBe(true);
  });

  it('has valid frontmatter values', () => {
    const d = g.data;
    for (const f of ['title', 'model', 'vendor', 'description', 'time']) {
      expect(typeof d[f], f).toBe('string');
      expect((d[f] as string).trim().length, f).toBeGreaterThan(0);
    }
    expect((d.description as string).length).toBeLessThanOrEqual(160);
    expect(Number.isInteger(d.order) && (d.order as number) >= 0, 'order').toBe(true);
    expect(DIFFICULTIES).toContain(d.difficulty);
    expect(FLASH_METHODS).toContain(d.flashMethod);
    expect(g.rawFrontmatter, 'updated must be YYYY-MM-DD').toMatch(/^updated: "?\d{4}-\d{2}-\d{2}"?$/m);
    const updated = d.updated instanceof Date ? d.updated : new Date(String(d.updated));
    expect(Number.isNaN(updated.getTime()), 'updated is a real date').toBe(false);
    expect(Array.isArray(d.relatedArticles)).toBe(true);
    const bad = (d.relatedArticles as string[]).filter((id) => !SUPPORT_IDS.includes(id));
    expect(bad, 'unknown support article ids').toEqual([]);
  });

  it('has the required H2 sections in order and no others', () => {
    expect(h2).toEqual(REQUIRED_H2);
  });

  it('does not repeat the title as an H1', () => {
    expect(headings(g.body, 1)).toEqual([]);
  });

  it('ends every step with a Checkpoint', () => {
    for (const title of REQUIRED_H2.filter((t) => t.startsWith('Step '))) {
      const content = secs.get(title) ?? '';
      expect(content, `${title} has no **Checkpoint:**`).toMatch(/\*\*Checkpoint:\*\*/);
    }
  });

  it('has Ethernet and Wi-Fi branches under power and network, each with a Checkpoint', () => {
    const content = secs.get('Step 3: Power and network') ?? '';
    const h3 = headings(content, 3);
    expect(h3).toEqual(expect.arrayContaining(['Ethernet', 'Wi-Fi']));
    for (const branch of content.split(/^### /m).slice(1)) {
      expect(branch, `branch "${branch.split('\n')[0]}"`).toMatch(/\*\*Checkpoint:\*\*/);
    }
  });

  it('tells the reader what to watch for on the status light', () => {
    const steps = REQUIRED_H2.filter((t) => t.startsWith('Step ')).map((t) => secs.get(t) ?? '');
    expect(steps.join('\n')).toMatch(/slow blink/i);
    expect(steps.join('\n')).toMatch(/solid/i);
  });

  it('has at least two troubleshooting symptoms', () => {
    const h3 = headings(secs.get('Troubleshooting') ?? '', 3);
    expect(h3.length).toBeGreaterThanOrEqual(2);
    expect(new Set(h3).size, 'duplicate symptoms').toBe(h3.length);
  });

  it('links to support and contact under Get help', () => {
    const help = links(secs.get('Get help') ?? '');
    expect(help).toContain('/support');
    expect(help).toContain('/contact');
  });

  it('links only to allowed internal targets and existing anchors', () => {
    const anchors = new Set([...headings(g.body, 2), ...headings(g.body, 3), ...headings(g.body, 4)].map(anchor));
    const bad: string[] = [];
    for (const href of links(g.body)) {
      if (href.startsWith('#')) {
        if (!anchors.has(href.slice(1))) bad.push(href);
        continue;
      }
      if (/^https?:\/\//.test(href) || href.startsWith('mailto:')) continue;
      const path = href.replace(/[?#].*$/, '').replace(/\/$/, '') || '/';
      if (ALLOWED_PAGES.includes(path)) continue;
      const support = /^\/support\/(.+)$/.exec(path);
      if (support && SUPPORT_IDS.includes(support[1])) continue;
      const guideLink = /^\/guides\/([a-z0-9-]+)$/.exec(path);
      if (guideLink && slugs.has(guideLink[1]) && guideLink[1] !== g.slug) continue;
      bad.push(href);
    }
    expect(bad, 'links to targets that are not allowed or do not exist').toEqual([]);
  });

  it('stays portable MDX: no imports, exports, components or expressions', () => {
    const src = withoutCode(g.body).replace(/`[^`\n]*`/g, '');
    expect(src).not.toMatch(/^\s*(import|export)\s/m);
    expect(src, 'JSX/HTML tag').not.toMatch(/<[A-Za-z/!]/);
    expect(src, 'MDX expression').not.toMatch(/[{}]/);
  });
});

describe('guide translations', () => {
  it.each(translations.map((t) => [t.file, t] as const))('%s matches its English source', (_f, t) => {
    const source = english.find((g) => g.slug === t.slug);
    expect(source, `no English ${t.slug}.mdx`).toBeDefined();
    const r = guideSchema.safeParse(t.data);
    expect(r.success, r.success ? '' : JSON.stringify(r.error.issues)).toBe(true);
    expect(Object.keys(t.data).sort()).toEqual([...FRONTMATTER_FIELDS].sort());
    // Facts that must not drift between languages.
    for (const f of ['model', 'vendor', 'order', 'difficulty', 'flashMethod']) {
      expect(t.data[f], f).toEqual(source!.data[f]);
    }
    expect([...(t.data.relatedArticles as string[])].sort()).toEqual(
      [...(source!.data.relatedArticles as string[])].sort(),
    );
    // Same shape as the source: as many H2 sections (translated), at least as many symptoms.
    expect(headings(t.body, 2).length).toBe(REQUIRED_H2.length);
    expect(headings(t.body, 1)).toEqual([]);
    const bad = links(t.body).filter((href) => {
      if (!href.startsWith('/')) return false;
      const path = href.replace(/[?#].*$/, '').replace(/\/$/, '');
      if (ALLOWED_PAGES.includes(path)) return false;
      const support = /^\/support\/(.+)$/.exec(path);
      if (support && SUPPORT_IDS.includes(support[1])) return false;
      const guideLink = /^\/guides\/([a-z0-9-]+)$/.exec(path);
      return !(guideLink && slugs.has(guideLink[1]));
    });
    expect(bad, 'links to targets that are not allowed or do not exist').toEqual([]);
    const src = withoutCode(t.body).replace(/`[^`\n]*`/g, '');
    expect(src).not.toMatch(/^\s*(import|export)\s/m);
    expect(src, 'JSX/HTML tag').not.toMatch(/<[A-Za-z/!]/);
    expect(src, 'MDX expression').not.toMatch(/[{}]/);
  });

  it('uses locale suffixes of the form ll_CC', () => {
    for (const t of translations) expect(t.locale, t.file).toMatch(/^[a-z]{2}_[A-Z]{2}$/);
  });
});

describe('guide translation coverage', () => {
  // Every guide exists in each of the shop's languages; a guide added in English fails here until its
  // translations follow (the site shows the English text with a notice meanwhile).
  it.each(['de_DE', 'es_ES', 'fr_FR', 'it_IT', 'pt_BR'])('%s translates every guide', (locale) => {
    const missing = english
      .filter((g) => !translations.some((t) => t.slug === g.slug && t.locale === locale))
      .map((g) => `content/guides/${g.slug}.${locale}.mdx`);
    expect(missing, `content/guides is missing ${locale} translations`).toEqual([]);
  });
});
