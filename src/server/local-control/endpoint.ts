/**
 * The shop's side of the local control channel: runs an `npm run shop` command sent by the CLI on this
 * machine inside the shop, on the shop's own engine, and streams back what it prints and its exit code.
 *
 *   GET  → 200 once the engine is open (the site server opens it at start this way), 503 with the reason.
 *   POST {"argv": [...], "stdin": string | null, "cwd": "/abs/path"}
 *        → 200, one JSON object a line: {"out": text} | {"err": text} … then {"exit": code}.
 *
 * Only from a loopback peer with the token of this process (credential.ts), compared in constant time;
 * 401/403 otherwise. Nothing of a command's arguments or output is logged: they may carry customers' names
 * and addresses.
 */
import type http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { runCommand, type CommandIo } from '../admin/cli/index.ts';
import type { Engine } from '../engine/index.ts';
import { acceptedToken, isLoopback, sameToken } from './credential.ts';

/** Standard input is a password at most; the arguments are a command line. */
const MAX_BODY_BYTES = 1024 * 1024;

const commandSchema = z.object({
  argv: z
    .array(z.string().max(64 * 1024))
    .min(1)
    .max(500),
  stdin: z.string().nullable(),
  cwd: z
    .string()
    .min(1)
    .max(4096)
    .refine((p) => path.isAbsolute(p), 'cwd must be an absolute path'),
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

export async function handleLocalCommand(
  request: Request,
  peer: string | undefined,
  getEngine: () => Promise<Engine>,
  log: (message: string) => void = (m) => console.log(`[meshfront] ${m}`),
): Promise<Response> {
  if (!isLoopback(peer)) return json(403, { error: 'Local commands are taken from this machine only.' });
  const expected = acceptedToken();
  if (!expected) return json(403, { error: 'This process takes no local commands.' });
  const given = /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  if (!given || !sameToken(given, expected)) return json(401, { error: 'Wrong or missing token.' });
  if (request.method !== 'GET' && request.method !== 'POST') return json(405, { error: 'GET or POST only.' });

  let engine: Engine;
  try {
    engine = await getEngine();
  } catch (err) {
    return json(503, { error: (err as Error).message });
  }
  if (request.method === 'GET') return json(200, { pid: process.pid, database: engine.database.kind });

  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) return json(413, { error: 'The command is too large.' });
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) return json(413, { error: 'The command is too large.' });
  let body: z.infer<typeof commandSchema>;
  try {
    body = commandSchema.parse(JSON.parse(text));
  } catch {
    return json(400, { error: 'Expected {"argv": [...], "stdin": string | null, "cwd": "/absolute/path"}.' });
  }

  const encoder = new TextEncoder();
  let push: (line: object) => void = () => {};
  let finish: () => void = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (line) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      finish = () => controller.close();
    },
  });
  let open = true;
  const io: CommandIo = {
    out: (line) => open && push({ out: `${line}\n` }),
    err: (line) => open && push({ err: `${line}\n` }),
    write: (chunk) => open && push({ out: chunk }),
    stdin: async () => body.stdin ?? '',
    cwd: body.cwd,
  };
  const name = /^[a-z][a-z-]{0,30}$/.test(body.argv[0]!) ? body.argv[0] : 'an unknown command';
  void runCommand(body.argv, { config: engine.config, io, engine: async () => engine, where: 'server', lock: null })
    .catch((err: unknown) => {
      io.err(`shop ${name} failed: ${(err as Error).message}`);
      return 1;
    })
    .then((code) => {
      log(`local command ${name} from the shop CLI: exit ${code}`);
      push({ exit: code });
      open = false;
      finish();
    });
  return new Response(stream, {
    status: 200,
    headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' },
  });
}

/** handleLocalCommand on node:http (the standalone API's local control listener). */
export function localCommandNodeHandler(getEngine: () => Promise<Engine>) {
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    try {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(new URL(req.url ?? '/', 'http://local.invalid'), {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) =>
          v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((one): [string, string] => [k, one]),
        ),
        body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
        ...(hasBody ? { duplex: 'half' } : {}),
      } as RequestInit);
      const response = await handleLocalCommand(request, req.socket.remoteAddress, getEngine);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) for await (const chunk of response.body) res.write(chunk);
      res.end();
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: (err as Error).message }));
    }
  };
}
