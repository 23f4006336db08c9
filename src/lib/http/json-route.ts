/**
 * Small pieces the engine's JSON routes (contact form, newsletter) share: JSON answers that never cache,
 * and a JSON body reader that refuses oversized bodies while reading them (a missing or lying
 * Content-Length cannot make it buffer more than the limit).
 */
import { readBoundedBody } from '../../lib/http/bounded-body.ts';

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export class RequestBodyError extends Error {
  override name = 'RequestBodyError';
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** The body as text, refusing (413) more than maxBytes. */
export async function readLimitedText(request: Request, maxBytes: number): Promise<string> {
  const body = await readBoundedBody(request, maxBytes);
  if (body === null) throw new RequestBodyError(413, 'The request is too large.');
  return new TextDecoder('utf-8', { fatal: false }).decode(body);
}

/** The request's JSON object body, or RequestBodyError (415 not JSON, 413 too large, 400 unparseable). */
export async function readJsonBody(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json')
    throw new RequestBodyError(415, 'Send the form as JSON (Content-Type: application/json).');
  const text = await readLimitedText(request, maxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RequestBodyError(400, 'The request body is not valid JSON.');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new RequestBodyError(400, 'The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** "in 12 minutes" style wording for a Retry-After in seconds. */
export function describeWait(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, seconds)} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}
