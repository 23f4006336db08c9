/**
 * Broken references in content/ fail the build with the file and line: a fixture site with a guide that
 * links to a page that does not exist, to a missing heading and a missing image, and lists a support article
 * that does not exist; the same guide fixed builds without a word. The shop's own content has none.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import contentReferences, { checkContentReferences } from '../../src/integrations/content-references.ts';

const root = path.resolve(import.meta.dirname, '../..');
let site: string;

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
  fs.writeFileSync(path.join(site, file), text);
}

const GOOD_GUIDE = `---
title: "Set up your RAK"
relatedArticles: ["gateways/flashing-meshfront-os"]
---

Read [flashing](/support/gateways/flashing-meshfront-os#steps) first, then [step 2](#step-2-connect-the-antenna).

## Step 2: Connect the antenna

![The antenna port](/images/antenna.png)
`;

beforeAll(() => {
  site = fs.mkdtempSync(path.join(os.tmpdir(), 'content-references-'));
  write('src/pages/[...locale]/contact.astro', '---\n---\n');
  write('public/images/antenna.png', 'png');
  write('content/support/gateways/_category.yaml', 'title: Gateways\n');
  write('content/support/gateways/flashing-meshfront-os.mdx', '---\ntitle: Flashing\n---\n\n## Steps\n\nText.\n');
  write('content/guides/rak.mdx', GOOD_GUIDE);
});
afterAll(() => fs.rmSync(site, { recursive: true, force: true }));

/** Runs the integration's hook as `astro build` / `astro dev` do. */
function runHook(command: 'build' | 'dev') {
  const warnings: string[] = [];
  const hook = contentReferences().hooks['astro:config:setup'] as (options: unknown) => void;
  hook({ config: { root: new URL(`file://${site}/`) }, command, logger: { warn: (m: string) => warnings.push(m) } });
  return warnings;
}

describe('content references', () => {
  it('a clean guide builds without a word', () => {
    expect(checkContentReferences(site)).toEqual([]);
    expect(runHook('build')).toEqual([]);
  });

  it('a broken link, heading, image and related article each fail the build with file and line', () => {
    write(
      'content/guides/rak.de_DE.mdx',
      `---
title: "RAK einrichten"
relatedArticles: ["gateways/no-such-article"]
---

Lies [Flashen](/support/gateways/flashing-meshfront-os) und [Kontakt](/no-such-page).

Siehe [Schritt 2](#step-2-connect-the-antenna).

## Schritt 2: Antenne anschließen

![Antenne](/images/no-such-image.png)
`,
    );
    expect(checkContentReferences(site)).toEqual([
      {
        file: 'content/guides/rak.de_DE.mdx',
        line: 3,
        message: 'relatedArticles: no support article "gateways/no-such-article"',
      },
      { file: 'content/guides/rak.de_DE.mdx', line: 6, message: '"/no-such-page": no page at /no-such-page' },
      {
        file: 'content/guides/rak.de_DE.mdx',
        line: 8,
        message:
          '"#step-2-connect-the-antenna": no heading #step-2-connect-the-antenna in content/guides/rak.de_DE.mdx',
      },
      {
        file: 'content/guides/rak.de_DE.mdx',
        line: 12,
        message: 'image "/images/no-such-image.png" is not in public/',
      },
    ]);
    expect(() => runHook('build')).toThrow(
      /4 broken references in content\/:\n {2}content\/guides\/rak\.de_DE\.mdx:3 /,
    );
    // The dev server only warns, so an editor can go on previewing.
    expect(runHook('dev')[0]).toContain('content/guides/rak.de_DE.mdx:6  "/no-such-page": no page at /no-such-page');
    fs.rmSync(path.join(site, 'content/guides/rak.de_DE.mdx'));
  });

  it("the shop's own content has no broken reference", () => {
    expect(checkContentReferences(root)).toEqual([]);
  });
});
