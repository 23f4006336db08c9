import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { CompressedStatic, chooseEncoding } from '../../src/lib/http/compressed-static';

describe('chooseEncoding', () => {
  it('prefers Brotli, falls back to gzip, and honours q=0 and *', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});

describe('CompressedStatic', () => {
  let dir: string;
  let server: http.Server;
  let base: string;
  const page = `<!doctype html><html><body>${'<p>Outdoor LoRa gateway with a fiberglass antenna.</p>'.repeat(200)}</body></html>`;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compressed-static-'));
    fs.mkdirSync(path.join(dir, 'product', 'gateway'), { recursive: true });
    fs.mkdirSync(path.join(dir, '_astro'));
    fs.writeFileSync(path.join(dir, 'product', 'gateway', 'index.html'), page);
    fs.writeFileSync(path.join(dir, '_astro', 'app.abc123.css'), '.card{color:red}\n'.repeat(200));
    fs.writeFileSync(path.join(dir, 'tiny.css'), 'a{}');
    fs.writeFileSync(path.join(dir, 'photo.png'), Buffer.alloc(4096, 1));
    fs.writeFileSync(path.join(os.tmpdir(), 'outside-secret.txt'), 'secret'.repeat(500));
    const compressed = new CompressedStatic(dir);
    server = http.createServer(async (req, res) => {
      res.setHeader('Vary', 'Accept-Language');
      if (req.url === '/latest.json') res.setHeader('Cache-Control', 'no-store');
      const pathname = new URL(req.url ?? '/', 'http://x.invalid').pathname;
      if (await compressed.serve(req, res, pathname)) return;
      res.writeHead(299, { 'content-type': 'text/plain' }).end('fell through');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(path.join(os.tmpdir(), 'outside-secret.txt'), { force: true });
  });

  /** Raw response (node:http does not decompress), so the wire bytes and headers can be checked. */
  function get(pathname: string, headers: Record<string, string> = {}, method = 'GET') {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = http.request(`${base}${pathname}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('sends a page Brotli-compressed to a browser that accepts it, with the same content', async () => {
    const r = await get('/product/gateway/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers.vary).toBe('Accept-Language, Accept-Encoding');
    expect(r.headers['cache-control']).toBe('public, max-age=0');
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(r.body.length).toBeLessThan(page.length / 10);
    expect(zlib.brotliDecompressSync(r.body).toString()).toBe(page);
  });

  it('serves a directory path without trailing slash (how the site links) as its index.html', async () => {
    const r = await get('/product/gateway', { 'accept-encoding': 'br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(zlib.brotliDecompressSync(r.body).toString()).toBe(page);
  });

  it('sends gzip when Brotli is not accepted, and hashed assets as immutable', async () => {
    const r = await get('/_astro/app.abc123.css', { 'accept-encoding': 'gzip' });
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(r.body).toString()).toBe('.card{color:red}\n'.repeat(200));
  });

  it('answers a revalidation with 304 and HEAD with headers only', async () => {
    const first = await get('/product/gateway/', { 'accept-encoding': 'br' });
    const again = await get('/product/gateway/', {
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get('/product/gateway/', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(head.body.length).toBe(0);
  });

  it('leaves everything else to the next handler', async () => {
    const fellThrough = async (pathname: string, headers: Record<string, string> = { 'accept-encoding': 'br' }) =>
      (await get(pathname, headers)).status === 299;
    expect(await fellThrough('/product/gateway/', {})).toBe(true); // no Accept-Encoding
    expect(await fellThrough('/product/gateway/', { 'accept-encoding': 'br', range: 'bytes=0-10' })).toBe(true);
    expect(await fellThrough('/tiny.css')).toBe(true); // too small to be worth it
    expect(await fellThrough('/photo.png')).toBe(true); // already compressed format
    expect(await fellThrough('/product/missing/')).toBe(true);
    expect(await fellThrough('/..%2Foutside-secret.txt')).toBe(true);
    expect(await fellThrough('/%2e%2e/outside-secret.txt')).toBe(true);
  });
});
