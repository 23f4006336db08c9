/**
 * The client's address for per-IP limits and logs. By default the TCP peer (Astro's clientAddress); with
 * TRUST_PROXY the entry our own proxies appended to X-Forwarded-For. Limits key IPv6 clients by their /64,
 * because one household or server gets a whole /64 and could otherwise rotate through 2^64 addresses.
 */
import net from 'node:net';
import type { ClientAddressSettings } from './settings.ts';

/** '::ffff:1.2.3.4' → '1.2.3.4'; '[::1]:443' and '1.2.3.4:80' lose the port; anything else unparseable → null. */
export function normalizeIp(value: string | null | undefined): string | null {
  if (!value) return null;
  let v = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
  if (bracketed) v = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(v)) v = v.slice(0, v.lastIndexOf(':'));
  v = v.replace(/%.*$/, ''); // zone index
  if (/^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(v)) v = v.slice(7);
  return net.isIP(v) ? v.toLowerCase() : null;
}

export function clientAddress(
  request: Request,
  socketAddress: string | null | undefined,
  settings: ClientAddressSettings,
): string | null {
  if (settings.trustedProxies > 0) {
    const chain = (request.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const entry = chain[chain.length - settings.trustedProxies];
    const ip = normalizeIp(entry);
    if (ip) return ip;
  }
  return normalizeIp(socketAddress);
}

function expandIPv6(ip: string): number[] {
  // An embedded IPv4 tail (::ffff:1.2.3.4) counts as the last two groups.
  const hex = ip.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_m, a: string, b: string, c: string, d: string) =>
      `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
  );
  const [head = '', tail] = hex.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(zeros).fill('0'), ...tailGroups].map((g) => parseInt(g, 16) || 0);
}

/** The rate-limit key for an address: IPv4 as is, IPv6 as its /64 ('2001:db8:1:2::/64'); null → 'unknown'. */
export function rateLimitKeyForIp(ip: string | null): string {
  if (!ip) return 'unknown';
  if (net.isIPv4(ip)) return ip;
  const groups = expandIPv6(ip);
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
