/**
 * What several browser specs share: the English UI strings, the axe check, the mail outbox
 * (<MESHFRONT_DATA_DIR>/mail) and its links, a German billing address, and the Chainweb stand-in.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
// The outbox reader itself, not the mail domain's door: that also loads the templates and their locale JSON,
// which Playwright's loader (Node's own) refuses without import attributes.
import { readOutbox, type OutboxFilter, type OutboxMessage } from '../../src/server/mail/mailer.ts';
import { startChainwebServer } from '../fixtures/chainweb-server.ts';

const outboxDir = path.resolve(process.env.MESHFRONT_DATA_DIR ?? 'var/e2e', 'mail');

/** English UI strings, so the test reads what a shopper reads. */
const strings = JSON.parse(fs.readFileSync(path.resolve('locales/en_US.json'), 'utf8')) as Record<string, string>;
export function t(key: string, params: Record<string, string | number> = {}): string {
  const value = strings[key];
  if (!value) throw new Error(`missing UI string ${key}`);
  return value.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** `where` names the screen in the failure list when one test checks several. */
export async function expectNoAxeViolations(page: Page, where?: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const prefix = where ? `${where} ` : '';
  expect(violations.map((v) => `${prefix}${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * Chooses in the privacy settings as a visitor would: the footer's "Privacy settings", then "Accept" or
 * "Only necessary". The choice is kept in the browser context for the rest of the test. `current`: the
 * status line the dialog should show first (the earlier choice).
 */
export async function choosePrivacy(page: Page, choice: 'accept' | 'necessary', current?: string) {
  await page.locator('footer [data-privacy-settings]').click();
  const dialog = page.getByRole('dialog', { name: t('privacy.settings.title') });
  await expect(dialog).toBeVisible();
  if (current) await expect(dialog).toContainText(current);
  const label = t(choice === 'accept' ? 'privacy.settings.accept' : 'privacy.settings.necessary');
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** The messages in the server's mail outbox that match, now. */
export const readMail = (filter: Omit<OutboxFilter, 'dir'>) => readOutbox({ dir: outboxDir, ...filter });

/** Polls the server's mail outbox until a message matches. */
export async function waitForMail(filter: { to: string; subject: RegExp }): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        [found] = await readMail(filter);
        return !!found;
      },
      { message: `a mail to ${filter.to} matching ${filter.subject}` },
    )
    .toBe(true);
  return found!;
}

/** Path + query of a link (e.g. from a mail), so it opens on the server under test whatever origin it names. */
export const localPath = (link: string) => {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
};

/** A billing address in Germany, where the form asks no state (WooCommerce's German address). */
export async function fillGermanBillingAddress(page: Page) {
  await page.locator('#checkout-billing-country').selectOption('DE');
  await expect(page.locator('#checkout-billing-state')).toHaveCount(0);
  await page.locator('#checkout-billing-address1').fill('Hauptstraße 1');
  await page.locator('#checkout-billing-city').fill('Berlin');
  await page.locator('#checkout-billing-postcode').fill('10115');
}

/**
 * The Chainweb stand-in listens on a random port; the engine was started with a fixed CHAINWEB_URL, so a
 * small proxy on that port forwards to it (as global-setup.ts does for the bot-check stand-in). Another
 * test (the other project, or another spec) may hold the port: wait for it.
 */
export async function startChain(port: number) {
  const standIn = await startChainwebServer({
    networkId: process.env.KADENA_NETWORK_ID ?? 'mainnet01',
    chainId: process.env.KADENA_CHAIN_ID ?? '1',
  });
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const upstream = await fetch(`${standIn.url.replace(/\/$/, '')}${req.url ?? '/'}`, {
          method: req.method,
          headers: {
            'content-type': req.headers['content-type'] ?? 'application/json',
            accept: req.headers.accept ?? '*/*',
          },
          body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
        });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await upstream.arrayBuffer()));
      } catch (error) {
        res.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
      }
    });
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await new Promise<void>((resolve, reject) => {
        proxy.once('error', reject);
        proxy.listen(port, '127.0.0.1', () => resolve());
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) {
        await standIn.stop();
        throw error;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  return {
    standIn,
    stop: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await standIn.stop();
    },
  };
}
