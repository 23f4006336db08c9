/**
 * Customers' downloads: the list (from the order domain's download permissions, granted on payment),
 * short-lived signed links (HMAC-SHA256 over permission id, owner and expiry), and serving a download:
 * the link is checked (signature, expiry), then ownership (the order still belongs to the link's
 * owner and is download-permitted), then the permission's expiry and remaining count, which is
 * decremented in one conditional UPDATE — concurrent downloads can never take it below zero.
 *
 * The permissions table belongs to the order domain: this service reads it and takes a download off it
 * through the OrderService (`downloadPermission`, `takeDownload`).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CatalogService } from '../catalog/service.ts';
import {
  isDownloadPermitted,
  type DownloadPermissionRow,
  type OrderRow,
  type OrderService,
} from '../orders/service.ts';
import type { DownloadSettings } from './settings.ts';

/** A permission with its order: what the DownloadableItem resolvers receive. */
export type DownloadNode = DownloadPermissionRow & { order: OrderRow };

export type DownloadFilter = {
  active?: boolean | null;
  expired?: boolean | null;
  hasDownloadsRemaining?: boolean | null;
};

export type ServeResult =
  | { ok: true; file: string; filename: string; size: number; remaining: number | null }
  | { ok: false; status: number; message: string };

export const LINK_EXPIRED =
  'This download link has expired. Please go back to your account and download the file again.';
export const INVALID_LINK = 'Invalid download link.';
export const LIMIT_REACHED = 'Sorry, you have reached your download limit for this file';
export const ACCESS_EXPIRED = 'Sorry, this download has expired';

export class DownloadService {
  constructor(
    private readonly catalog: CatalogService,
    private readonly orders: OrderService,
    readonly settings: DownloadSettings,
    private readonly key: Buffer,
    private readonly siteUrl: string,
  ) {}

  // ---------- signed links ----------

  sign(permissionId: number, owner: string, now = Date.now()): string {
    const payload = Buffer.from(
      JSON.stringify({ p: permissionId, o: owner, e: Math.floor(now / 1000) + this.settings.linkTtlSeconds }),
    ).toString('base64url');
    const mac = crypto.createHmac('sha256', this.key).update(payload).digest('base64url');
    return `${payload}.${mac}`;
  }

  verify(token: string, now = Date.now()): { permissionId: number; owner: string } | { error: 'invalid' | 'expired' } {
    const m = /^([\w-]{1,400})\.([\w-]{43})$/.exec(token);
    if (!m) return { error: 'invalid' };
    // Compared as text: only the canonical encoding of the MAC is accepted.
    const expected = Buffer.from(crypto.createHmac('sha256', this.key).update(m[1]!).digest('base64url'));
    const given = Buffer.from(m[2]!);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return { error: 'invalid' };
    let claims: { p?: unknown; o?: unknown; e?: unknown };
    try {
      claims = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8'));
    } catch {
      return { error: 'invalid' };
    }
    if (typeof claims.p !== 'number' || typeof claims.o !== 'string' || typeof claims.e !== 'number')
      return { error: 'invalid' };
    if (claims.e * 1000 <= now) return { error: 'expired' };
    return { permissionId: claims.p, owner: claims.o };
  }

  urlFor(d: DownloadNode): string {
    return `${this.siteUrl}/api/downloads/${this.sign(d.id, d.order.customerId)}`;
  }

  // ---------- the customer's list ----------

  /** Up to `limit` downloads of the customer's download-permitted orders, newest order first. */
  async listForCustomer(customerId: string, filter: DownloadFilter = {}, limit = 100): Promise<DownloadNode[]> {
    const snap = await this.catalog.snapshot();
    const now = Date.now();
    const out: DownloadNode[] = [];
    for (const order of await this.orders.listByCustomer(customerId, 1000)) {
      if (!isDownloadPermitted(order)) continue;
      for (const d of await this.orders.downloads(order.id)) {
        // The product must still exist and still offer that file (as WooCommerce).
        if (!snap.productsById.get(d.productId)?.downloads.some((x) => x.id === d.downloadId)) continue;
        const expired = !!d.accessExpires && d.accessExpires.getTime() <= now;
        const remains = d.downloadsRemaining === null || d.downloadsRemaining > 0;
        if (filter.active === true && (expired || !remains)) continue;
        if (filter.active === false && !expired && remains) continue;
        if (filter.expired === true && !expired) continue;
        if (filter.expired === false && expired) continue;
        if (filter.hasDownloadsRemaining === true && !remains) continue;
        if (filter.hasDownloadsRemaining === false && remains) continue;
        out.push({ ...d, order });
        if (out.length >= limit) return out;
      }
    }
    return out;
  }

  // ---------- serving ----------

  /** Finds a stored file by its catalog name in the configured directories (never outside them). */
  locate(file: string): string | null {
    if (!file || file !== path.basename(file) || file.startsWith('.')) return null;
    for (const dir of this.settings.dirs) {
      const full = path.join(dir, file);
      try {
        if (fs.statSync(full).isFile()) return full;
      } catch {
        /* not in this directory */
      }
    }
    return null;
  }

  /** Checks a link and takes one download off the permission's count (atomically); the file to send. */
  async serve(token: string): Promise<ServeResult> {
    const link = this.verify(token);
    if ('error' in link)
      return link.error === 'expired'
        ? { ok: false, status: 403, message: LINK_EXPIRED }
        : { ok: false, status: 404, message: INVALID_LINK };
    const perm = await this.orders.downloadPermission(link.permissionId);
    if (!perm) return { ok: false, status: 404, message: INVALID_LINK };
    const order = await this.orders.get(perm.orderId);
    if (!order || order.customerId !== link.owner)
      return { ok: false, status: 403, message: 'This is not your download link.' };
    if (!isDownloadPermitted(order)) return { ok: false, status: 403, message: 'Invalid order.' };
    const download = (await this.catalog.snapshot()).productsById
      .get(perm.productId)
      ?.downloads.find((x) => x.id === perm.downloadId);
    if (!download) return { ok: false, status: 404, message: INVALID_LINK };
    const file = this.locate(download.file);
    if (!file) return { ok: false, status: 404, message: 'File not found.' };
    const taken = await this.orders.takeDownload(perm.id);
    if (!taken) {
      const expired = perm.accessExpires && perm.accessExpires.getTime() <= Date.now();
      return { ok: false, status: 403, message: expired ? ACCESS_EXPIRED : LIMIT_REACHED };
    }
    return { ok: true, file, filename: download.file, size: fs.statSync(file).size, remaining: taken.remaining };
  }
}
