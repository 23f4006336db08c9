/**
 * On-demand pages (prerender = false) of the build render their React islands without misusing React:
 * a fresh `node scripts/serve.mjs` on the build under test (its own port and an empty data directory, so
 * it never shares the test server's database) answers each page, and nothing it wrote to stderr is a
 * React complaint about hooks. This caught the cart drawer being called as a plain function by Astro's
 * MDX renderer probe on every such page (see src/islands/cart/CartDrawer.tsx).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = path.resolve(ROOT, process.env.MESHFRONT_DIST_DIR ?? 'dist');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

test.describe('on-demand pages of the build', () => {
  let child: ChildProcess;
  let dataDir: string;
  let base: string;
  let stderr = '';

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-ssr-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs')], {
      cwd: ROOT,
      // development: only React's development build reports a hook called outside a component.
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        MESHFRONT_DIST_DIR: DIST,
        MESHFRONT_DATA_DIR: dataDir,
        PUBLIC_SITE_URL: base,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await new Promise<void>((resolve, reject) => {
      // An empty data directory: the server creates and seeds its database first (seconds; more beside the
      // other browser tests on a busy machine).
      const timer = setTimeout(() => reject(new Error(`site server did not start; stderr:\n${stderr}`)), 60_000);
      child.once('exit', (code) => reject(new Error(`site server exited with ${code}; stderr:\n${stderr}`)));
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        if (chunk.includes('is serving on')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  });

  test.afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  for (const [name, pathname, island] of [
    ['order received', '/checkout/order-received/4711?key=wc_order_x', 'OrderSummary'],
    ['order summary (German)', '/de/order-summary/4711', 'OrderSummary'],
    ['external login callback', '/oauth/login/oidc?code=x&state=y', 'OAuthCallback'],
    ['newsletter unsubscribe', '/newsletter/unsubscribe?token=x', 'CartDrawer'],
  ] as const) {
    test(`${name}: renders its islands, React reports nothing about hooks`, async ({ request }) => {
      const before = stderr.length;
      const response = await request.get(`${base}${pathname}`);
      expect(response.status()).toBe(200);
      const html = await response.text();
      // The shell's cart drawer (client:panel) and the page's own island are in the HTML, ready to hydrate.
      expect(html).toMatch(/<astro-island[^>]*component-url="[^"]*CartDrawer[^"]*"/);
      expect(html).toMatch(new RegExp(`<astro-island[^>]*component-url="[^"]*${island}[^"]*"`));
      // React writes its warnings synchronously during the render; give the stream a moment to arrive.
      await new Promise((r) => setTimeout(r, 200));
      expect(stderr.slice(before)).not.toMatch(/Invalid hook call|Hooks can only be called/);
    });
  }
});
