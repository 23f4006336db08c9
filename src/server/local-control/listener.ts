/**
 * The shop's local control listener: `npm run shop` commands from this machine while the shop has the
 * embedded database open (the CLI cannot open it then). It listens on 127.0.0.1 on a port of the
 * system's choosing — never on the shop's public address, whatever HOST says — answers only
 * LOCAL_COMMAND_PATH from loopback peers, and hands those requests to `handle`, which checks the token
 * (endpoint.ts). Once the shop has the database, `publish` writes the credential for the CLI.
 *
 * Plain, erasable TypeScript with Node built-ins only: scripts/serve.mjs loads it directly.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  acceptToken,
  isLoopback,
  LOCAL_COMMAND_PATH,
  newToken,
  removeCredential,
  writeCredential,
} from './credential.ts';

export type LocalControl = {
  url: string;
  token: string;
  /** Whether the engine behind `handle` opens: a GET through the channel. */
  ready(): Promise<{ ok: true } | { ok: false; error: string }>;
  /** Writes the credential file (call once this process holds the database). */
  publish(): void;
  /** Removes the credential and stops listening; commands still running get `graceMs` to finish. */
  close(graceMs?: number): Promise<void>;
};

export async function startLocalControl(options: {
  dataDir: string;
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => unknown;
}): Promise<LocalControl> {
  const token = newToken();
  const server = http.createServer((req, res) => {
    if (!isLoopback(req.socket.remoteAddress)) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Local commands only from this machine.');
      return;
    }
    if (new URL(req.url ?? '/', 'http://local.invalid').pathname !== LOCAL_COMMAND_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    void options.handle(req, res);
  });
  // The process's own requests and the CLI's: no browser, no keep-alive worth keeping.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${LOCAL_COMMAND_PATH}`;
  acceptToken(token);
  let published = false;
  return {
    url,
    token,
    async ready() {
      try {
        const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        if (r.ok) return { ok: true };
        const body = (await r.json().catch(() => ({}))) as { error?: string };
        return { ok: false, error: body.error ?? `the engine did not start (HTTP ${r.status})` };
      } catch (err) {
        return { ok: false, error: (err as Error).message };
      }
    },
    publish() {
      writeCredential(options.dataDir, { pid: process.pid, url, token });
      published = true;
    },
    async close(graceMs = 10_000) {
      if (published) removeCredential(options.dataDir, token);
      acceptToken(null);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      timer.unref();
      await closed;
      clearTimeout(timer);
    },
  };
}
