/**
 * A request body read with a size bound: refused by the declared Content-Length before reading, and by
 * counting while streaming (a client may send more than it declared, or use chunked encoding), so an
 * oversized body is never held whole in memory. Server-only; each caller words its own refusal.
 */

/** The body's bytes, or null when it is (or declares to be) larger than `maxBytes`. */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<Buffer | null> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
