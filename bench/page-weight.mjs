// Measures the JavaScript and CSS a page loads before the first interaction, gzip-compressed,
// by loading it in headless Chromium and compressing every script/stylesheet response body.
import { chromium } from 'playwright-core';
import { gzipSync } from 'node:zlib';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function measurePageWeights(baseUrl, pages) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const results = [];
  try {
    for (const { name, path } of pages) {
      const context = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true });
      const page = await context.newPage();
      const bodies = [];
      page.on('response', async (res) => {
        const type = res.request().resourceType();
        if (type !== 'script' && type !== 'stylesheet') return;
        try {
          bodies.push({ type, url: res.url(), bytes: gzipSync(await res.body()).length });
        } catch {
          /* redirects have no body */
        }
      });
      const response = await page.goto(new URL(path, baseUrl).href, { waitUntil: 'networkidle' });
      // Inline scripts count too: they are part of what the phone parses before anyone taps.
      const inline = await page.$$eval('script:not([src])', (els) => els.map((e) => e.textContent ?? ''));
      const inlineJs = inline.reduce((sum, s) => sum + gzipSync(Buffer.from(s)).length, 0);
      await page.waitForTimeout(300);
      const js = bodies.filter((b) => b.type === 'script').reduce((s, b) => s + b.bytes, 0) + inlineJs;
      const css = bodies.filter((b) => b.type === 'stylesheet').reduce((s, b) => s + b.bytes, 0);
      results.push({
        name,
        path,
        status: response?.status() ?? 0,
        jsKB: js / 1024,
        cssKB: css / 1024,
        files: bodies.map((b) => b.url),
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}
