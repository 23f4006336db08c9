/** The rate-limit module's one import door: the database-backed limiter and the client-address helpers. */
import type { Database } from '../db/connection.ts';
import { RateLimiter } from './service.ts';

export {
  RateLimiter,
  secondsUntilAllowed,
  type ConsumeInput,
  type ConsumeResult,
  type PeekResult,
  type RateLimiterOptions,
} from './service.ts';
export { clientAddress, normalizeIp, rateLimitKeyForIp } from './client-address.ts';
export { readClientAddressSettings, RateLimitSettingsError, type ClientAddressSettings } from './settings.ts';

const limiters = new WeakMap<Database, RateLimiter>();

/** One limiter per database handle, so its clean-up timer is shared by every caller of that database. */
export function rateLimiterFor(db: Database): RateLimiter {
  let limiter = limiters.get(db);
  if (!limiter) {
    limiter = new RateLimiter(db);
    limiters.set(db, limiter);
  }
  return limiter;
}
