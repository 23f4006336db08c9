/**
 * `npm run content:new -- guide <model-slug>` on a temporary copy of content/guides: the new guide has the
 * agreed frontmatter with values the guide schema accepts, the required sections in order with a
 * Checkpoint in every step and branch, and only links the guide checks allow; bad slugs, existing guides
 * and misuse are refused with exit code 1 and nothing written.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guide as guideSchema } from '../../src/lib/content/schemas.ts';
import { FIXED_SUPPORT_IDS } from '../content/linked-support-articles.ts';
import { ALLOWED_PAGES, FRONTMATTER_FIELDS, REQUIRED_H2 } from '../content/guide-rules.ts';

const root = path.resolve(import.meta.dirname, '../..');
let contentDir: string;

function run(...args: string[]) {
  return spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'scripts/content-new.ts'), ...args],
    { cwd: root, encoding: 'utf8' },
  );
}

function read(slug: string) {
  const text = fs.readFileSync(path.join(contentDir, 'guides', `${slug}.mdx`), 'utf8');
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`${slug}.mdx has no frontmatter block`);
  return { raw: m[1]!, data: yaml.load(m[1]!) as Record<string, unknown>, body: m[2]! };
}

/** H2 title → its text up to the next H2 (fenced code removed). */
function sections(body: string): Map<string, string> {
  const out = new Map<string, string>();
  const prose = body.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  for (const part of prose.split(/^## /m).slice(1)) {
    const nl = part.indexOf('\n');
    out.set(part.slice(0, nl).trim(), part.slice(nl + 1));
  }
  return out;
}

const ordersOf = (filter: (vendor: string) => boolean) =>
  fs
    .readdirSync(path.join(root, 'content/guides'))
    .filter((f) => /^[a-z0-9-]+\.mdx$/.test(f))
    .map((f) => {
      const text = fs.readFileSync(path.join(root, 'content/guides', f), 'utf8');
      return yaml.load(/^---\n([\s\S]*?)\n---/.exec(text)![1]!) as { vendor: string; order: number };
    })
    .filter((d) => filter(d.vendor))
    .map((d) => d.order);

function localToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

beforeAll(() => {
  contentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-new-'));
  fs.cpSync(path.join(root, 'content/guides'), path.join(contentDir, 'guides'), { recursive: true });
});

afterAll(() => {
  fs.rmSync(contentDir, { recursive: true, force: true });
});

describe('content:new guide', () => {
  it('writes a guide whose frontmatter the guide schema accepts, with placeholders to fill in', () => {
    const before = localToday();
    const r = run('guide', 'acme-x1', '--dir', contentDir);
    const after = localToday();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(path.join('guides', 'acme-x1.mdx'));
    const { raw, data } = read('acme-x1');
    expect(Object.keys(data).sort()).toEqual([...FRONTMATTER_FIELDS].sort());
    const parsed = guideSchema.safeParse(data);
    expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
    expect(data.title).toBe('Set up your Acme X1 with Meshfront OS');
    expect(data.model).toBe('Acme X1');
    expect(data.vendor).toBe('Acme');
    expect(String(data.description).length).toBeLessThanOrEqual(160);
    expect(data.description).toMatch(/TODO/);
    expect(data.time).toMatch(/TODO/);
    expect(raw).toMatch(/^updated: \d{4}-\d{2}-\d{2}$/m);
    expect([before, after]).toContain(/^updated: (\S+)$/m.exec(raw)![1]);
    // The allowed values are written beside the fields an editor must choose.
    expect(raw).toMatch(/^difficulty: \S+ # .*easy \| moderate \| advanced/m);
    expect(raw).toMatch(/^flashMethod: \S+ # .*sd-card \| usb-boot \| emmc \| network/m);
    for (const id of data.relatedArticles as string[]) expect(FIXED_SUPPORT_IDS).toContain(id);
  });

  it('gives the new guide a free place in the model picker, after the other vendors', () => {
    const { data } = read('acme-x1');
    const all = ordersOf(() => true);
    expect(all).not.toContain(data.order);
    expect(data.order as number).toBeGreaterThan(Math.max(...all));
  });

  it('puts a guide for a company gateway before every other vendor', () => {
    const r = run('guide', 'meshfront-gateway-mini', '--dir', contentDir);
    expect(r.status, r.stderr).toBe(0);
    const { data } = read('meshfront-gateway-mini');
    expect(data.vendor).toBe('Meshfront');
    expect(ordersOf(() => true)).not.toContain(data.order);
    expect(data.order as number).toBeLessThan(Math.min(...ordersOf((v) => v !== 'Meshfront')));
  });

  it('has the required sections in order, no H1, and a Checkpoint in every step and network branch', () => {
    const { body } = read('acme-x1');
    const secs = sections(body);
    expect([...secs.keys()]).toEqual(REQUIRED_H2);
    expect(body).not.toMatch(/^# /m);
    for (const title of REQUIRED_H2.filter((t) => t.startsWith('Step '))) {
      expect(secs.get(title), `${title} has no **Checkpoint:**`).toMatch(/\*\*Checkpoint:\*\*/);
    }
    const network = secs.get('Step 3: Power and network')!;
    const branches = network.split(/^### /m).slice(1);
    expect(branches.map((b) => b.split('\n')[0]!.trim())).toEqual(['Ethernet', 'Wi-Fi']);
    for (const b of branches) expect(b.match(/\*\*Checkpoint:\*\*/g)).toHaveLength(1);
    for (const title of REQUIRED_H2.filter((t) => t.startsWith('Step ') && !t.startsWith('Step 3')))
      expect(secs.get(title)!.match(/\*\*Checkpoint:\*\*/g), title).toHaveLength(1);
    const symptoms = [...secs.get('Troubleshooting')!.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    expect(symptoms.length).toBeGreaterThanOrEqual(2);
    expect(secs.get('Get help')).toMatch(/\]\(\/support\)/);
    expect(secs.get('Get help')).toMatch(/\]\(\/contact\)/);
  });

  it('stays portable Markdown and links only where guides may link', () => {
    const { body } = read('acme-x1');
    const prose = body.replace(/`[^`\n]*`/g, '');
    expect(prose).not.toMatch(/^\s*(import|export)\s/m);
    expect(prose).not.toMatch(/<[A-Za-z/!]/);
    expect(prose).not.toMatch(/[{}]/);
    const anchors = new Set([...body.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/\s/g, '-')));
    for (const [, href] of body.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
      if (href!.startsWith('#')) expect(anchors, href).toContain(href!.slice(1));
      else if (href!.startsWith('/support/')) expect(FIXED_SUPPORT_IDS, href).toContain(href!.slice(9));
      else expect(ALLOWED_PAGES, href).toContain(href);
    }
  });
});

describe('content:new refuses', () => {
  it.each(['Acme-X1', 'acme_x1', 'acme--x1', 'acme-', 'acme x1', 'acme.de_DE'])('the slug %j', (slug) => {
    const r = run('guide', slug, '--dir', contentDir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('is not a valid model slug');
    expect(fs.readdirSync(path.join(contentDir, 'guides')).filter((f) => f.toLowerCase().includes('acme'))).toEqual([
      'acme-x1.mdx',
    ]);
  });

  it('a guide that exists, and leaves it as it was', () => {
    const file = path.join(contentDir, 'guides', 'heltec.mdx');
    const before = fs.readFileSync(file, 'utf8');
    const r = run('guide', 'heltec', '--dir', contentDir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/heltec\.mdx already exists/);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('a guide it has just written', () => {
    const r = run('guide', 'acme-x1', '--dir', contentDir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/acme-x1\.mdx already exists/);
  });

  it('a missing or unknown kind, a missing slug, an unknown option and a directory without guides', () => {
    for (const [args, message] of [
      [[], 'say what to create'],
      [['page', 'about'], '"page" is not something this command creates'],
      [['guide'], 'the model slug is missing'],
      [['guide', 'acme-x2', '--force'], 'unknown option "--force"'],
      [['guide', 'acme-x2', '--dir'], '--dir needs a directory'],
      [['guide', 'acme-x2', '--dir', path.join(contentDir, 'guides')], 'there is no guides folder'],
    ] as const) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toContain(message);
    }
    expect(fs.existsSync(path.join(contentDir, 'guides', 'acme-x2.mdx'))).toBe(false);
  });
});
