/**
 * What HTTP caches may do with /graphql answers. Only a catalog read (response-cache.ts: root fields
 * whose answers depend on the catalog alone) that hands out no session token is the same for every
 * caller; it goes out without caching instructions of its own, as before. Every other answer — cart,
 * customer, orders, account mutations, errors before execution, and a catalog read that carries a new
 * `woocommerce-session` token (a per-visitor secret) — is `Cache-Control: private, no-store` with
 * `Vary: Authorization, woocommerce-session, Cookie` added to the Vary already there, so no shared cache ever
 * keeps one caller's answer for another. Every answer varies by Origin: the CORS headers name the
 * caller's origin (or none when the request has no Origin); and by Accept-Language: prices, labels and
 * messages are written in the language it asks for (request-locale.ts).
 */
import type { Plugin } from 'graphql-yoga';
import { SESSION_HEADER } from '../session/service.ts';
import { isCatalogRead } from './response-cache.ts';

export const PERSONAL_CACHE_CONTROL = 'private, no-store';
/** The request headers a personal answer depends on: the login and the session (header, or cookie: session/cookie.ts). */
export const PERSONAL_VARY: readonly string[] = ['Authorization', SESSION_HEADER, 'Cookie'];

const varyNames = (value: string | null | undefined) =>
  (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** A Vary value with `names` added (each once, whatever its case); `*` stays `*`. */
export function varyWith(value: string | null | undefined, names: readonly string[]): string {
  const list = varyNames(value);
  if (list.includes('*')) return '*';
  const present = new Set(list.map((name) => name.toLowerCase()));
  for (const name of names) if (!present.has(name.toLowerCase())) list.push(name);
  return list.join(', ');
}

/** A Vary value without `names` (null when nothing is left). */
export function varyWithout(value: string | null | undefined, names: readonly string[]): string | null {
  const drop = new Set(names.map((name) => name.toLowerCase()));
  const list = varyNames(value).filter((name) => !drop.has(name.toLowerCase()));
  return list.length ? list.join(', ') : null;
}

/** The CORS headers of every answer depend on the request's Origin. */
export const CORS_VARY: readonly string[] = ['Origin'];
/** Every answer is written in the language the request asks for. */
export const LANGUAGE_VARY: readonly string[] = ['Accept-Language'];

/** Marks an answer as the caller's own: no cache may store it. */
export function markPersonal(headers: Headers): void {
  headers.set('cache-control', PERSONAL_CACHE_CONTROL);
  headers.set('vary', varyWith(headers.get('vary'), PERSONAL_VARY));
}

/**
 * The Yoga plugin: notes which requests ran a catalog read, adds Origin and Accept-Language to every answer's Vary, and
 * marks every other answer (and any answer carrying a session token) personal. Registered after the session plugin, whose response hook
 * sets the token header first, and before the response cache, whose hits end the execute hooks early.
 */
export function useCachePolicy(): Plugin {
  const catalogReads = new WeakSet<Request>();
  return {
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request } | undefined)?.request;
      if (request && isCatalogRead(args.document, args.operationName)) catalogReads.add(request);
    },
    onResponse({ request, response }) {
      if (request.method === 'OPTIONS') return;
      response.headers.set('vary', varyWith(response.headers.get('vary'), [...CORS_VARY, ...LANGUAGE_VARY]));
      if (catalogReads.has(request) && !response.headers.has(SESSION_HEADER)) return;
      markPersonal(response.headers);
    },
  };
}
