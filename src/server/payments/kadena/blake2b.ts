/**
 * BLAKE2b (RFC 7693) with a selectable digest length, unkeyed.
 *
 * Why it exists: a Pact command's hash is BLAKE2b-256 of the command text, and node:crypto only offers
 * 'blake2b512'. BLAKE2b-256 is not a truncated BLAKE2b-512 (the digest length is mixed into the initial
 * state), so it has to be computed here. 64-bit words are held as pairs of 32-bit halves for speed; the
 * test suite checks this implementation against node:crypto's blake2b512 and against published vectors.
 */

const IV32 = new Uint32Array([
  0xf3bcc908, 0x6a09e667, 0x84caa73b, 0xbb67ae85, 0xfe94f82b, 0x3c6ef372, 0x5f1d36f1, 0xa54ff53a, 0xade682d1,
  0x510e527f, 0x2b3e6c1f, 0x9b05688c, 0xfb41bd6b, 0x1f83d9ab, 0x137e2179, 0x5be0cd19,
]);

const SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

// Working vector v[0..15] and message m[0..15], each 64-bit word as (lo, hi) at [2i, 2i+1].
const v = new Uint32Array(32);
const m = new Uint32Array(32);

function add64(a: number, b: number): void {
  const lo = v[a]! + v[b]!;
  const hi = v[a + 1]! + v[b + 1]! + (lo >= 0x100000000 ? 1 : 0);
  v[a] = lo;
  v[a + 1] = hi;
}

function add64m(a: number, lo0: number, hi0: number): void {
  const lo = v[a]! + lo0;
  const hi = v[a + 1]! + hi0 + (lo >= 0x100000000 ? 1 : 0);
  v[a] = lo;
  v[a + 1] = hi;
}

/** v[d] = (v[d] ^ v[a]) >>> n (64-bit rotate right), for n in {16, 24, 32, 63}. */
function xorRotr(d: number, a: number, n: number): void {
  const xlo = v[d]! ^ v[a]!;
  const xhi = v[d + 1]! ^ v[a + 1]!;
  if (n === 32) {
    v[d] = xhi;
    v[d + 1] = xlo;
  } else if (n < 32) {
    v[d] = (xlo >>> n) | (xhi << (32 - n));
    v[d + 1] = (xhi >>> n) | (xlo << (32 - n));
  } else {
    const k = n - 32;
    v[d] = (xhi >>> k) | (xlo << (32 - k));
    v[d + 1] = (xlo >>> k) | (xhi << (32 - k));
  }
}

function mix(a: number, b: number, c: number, d: number, x: number, y: number): void {
  add64(a, b);
  add64m(a, m[x]!, m[x + 1]!);
  xorRotr(d, a, 32);
  add64(c, d);
  xorRotr(b, c, 24);
  add64(a, b);
  add64m(a, m[y]!, m[y + 1]!);
  xorRotr(d, a, 16);
  add64(c, d);
  xorRotr(b, c, 63);
}

function compress(h: Uint32Array, block: Uint8Array, offset: number, counter: number, last: boolean): void {
  for (let i = 0; i < 16; i++) {
    v[i] = h[i]!;
    v[i + 16] = IV32[i]!;
  }
  // t is at most 2^53 here (JS lengths), split into 32-bit halves.
  v[24] = v[24]! ^ (counter >>> 0);
  v[25] = v[25]! ^ Math.floor(counter / 0x100000000);
  if (last) {
    v[28] = ~v[28]!;
    v[29] = ~v[29]!;
  }
  for (let i = 0; i < 32; i++) {
    const p = offset + i * 4;
    m[i] = block[p]! | (block[p + 1]! << 8) | (block[p + 2]! << 16) | (block[p + 3]! << 24);
  }
  for (let r = 0; r < 12; r++) {
    const s = SIGMA[r % 10]!;
    mix(0, 8, 16, 24, s[0]! * 2, s[1]! * 2);
    mix(2, 10, 18, 26, s[2]! * 2, s[3]! * 2);
    mix(4, 12, 20, 28, s[4]! * 2, s[5]! * 2);
    mix(6, 14, 22, 30, s[6]! * 2, s[7]! * 2);
    mix(0, 10, 20, 30, s[8]! * 2, s[9]! * 2);
    mix(2, 12, 22, 24, s[10]! * 2, s[11]! * 2);
    mix(4, 14, 16, 26, s[12]! * 2, s[13]! * 2);
    mix(6, 8, 18, 28, s[14]! * 2, s[15]! * 2);
  }
  for (let i = 0; i < 16; i++) h[i] = h[i]! ^ v[i]! ^ v[i + 16]!;
}

/** BLAKE2b digest of `input` with `outputLength` bytes (1..64). */
export function blake2b(input: Uint8Array | string, outputLength = 64): Uint8Array {
  if (!Number.isInteger(outputLength) || outputLength < 1 || outputLength > 64) {
    throw new RangeError('BLAKE2b output length must be an integer from 1 to 64 bytes');
  }
  const data = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const h = new Uint32Array(IV32);
  // Parameter block word 0: digest length, key length 0, fanout 1, depth 1.
  h[0] = h[0]! ^ (0x01010000 | outputLength);

  const block = new Uint8Array(128);
  let counter = 0;
  let pos = 0;
  // Every full block except the last one is compressed as "not last".
  while (data.length - pos > 128) {
    counter += 128;
    compress(h, data, pos, counter, false);
    pos += 128;
  }
  const rest = data.length - pos;
  block.set(data.subarray(pos, pos + rest));
  counter += rest;
  compress(h, block, 0, counter, true);

  const out = new Uint8Array(outputLength);
  for (let i = 0; i < outputLength; i++) out[i] = (h[i >> 2]! >>> (8 * (i & 3))) & 0xff;
  return out;
}

/** BLAKE2b-256, the hash Pact uses for command hashes and request keys. */
export function blake2b256(input: Uint8Array | string): Uint8Array {
  return blake2b(input, 32);
}
