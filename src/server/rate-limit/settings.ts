/**
 * Settings shared by everything that limits or logs by client address, read from the environment and
 * validated with zod (the style of ../config.ts, which will fold these in). Empty values count as unset.
 *
 * Settings (all optional):
 *   TRUST_PROXY   How the client address is found. false (default): the TCP peer address — right when
 *                 Node faces the internet. true or 1: behind one reverse proxy / load balancer that appends
 *                 the peer to X-Forwarded-For; the last entry is the client. A number n: n such proxies in a
 *                 row; the n-th entry from the right is the client. Entries further left are written by the
 *                 client and never trusted. Setting this without a proxy lets anyone pick their address and
 *                 walk around every per-IP limit.
 */
import { z } from 'zod';

const envSchema = z.object({
  TRUST_PROXY: z
    .string()
    .trim()
    .toLowerCase()
    .refine(
      (v) => /^(true|false|yes|no|on|off|\d{1,2})$/.test(v),
      'must be true, false or the number of proxies in front of the server (0–99)',
    )
    .transform((v) => (['true', 'yes', 'on'].includes(v) ? 1 : ['false', 'no', 'off'].includes(v) ? 0 : Number(v)))
    .default(0),
});

export type ClientAddressSettings = {
  /** How many trusted proxies append to X-Forwarded-For (0 → use the socket address). */
  trustedProxies: number;
};

export class RateLimitSettingsError extends Error {
  override name = 'RateLimitSettingsError';
}

export function readClientAddressSettings(
  env: Record<string, string | undefined> = process.env,
): ClientAddressSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new RateLimitSettingsError(`Invalid client address settings:\n${lines.join('\n')}`);
  }
  return { trustedProxies: parsed.data.TRUST_PROXY };
}
