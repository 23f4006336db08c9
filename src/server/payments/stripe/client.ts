/**
 * The one place the `stripe` SDK is constructed. host/port/protocol come from the settings: unset means
 * Stripe's real API, tests set them to the loopback stand-in — same SDK, same requests.
 */
import Stripe from 'stripe';
import type { StripeSettings } from './settings.ts';

export function createStripeClient(
  settings: Pick<StripeSettings, 'secretKey' | 'api'> &
    Partial<Pick<StripeSettings, 'timeoutMs' | 'maxNetworkRetries'>>,
  options: { maxNetworkRetries?: number; timeoutMs?: number } = {},
): Stripe {
  if (!settings.secretKey) throw new Error('Stripe secret key not configured (set STRIPE_SECRET_KEY)');
  return new Stripe(settings.secretKey, {
    ...settings.api,
    // Retries are safe: every POST carries an idempotency key (ours, or the SDK's own). Timeout and
    // retries bound a shopper's wait (settings.ts STRIPE_TIMEOUT_MS, STRIPE_MAX_NETWORK_RETRIES).
    maxNetworkRetries: options.maxNetworkRetries ?? settings.maxNetworkRetries ?? 1,
    timeout: options.timeoutMs ?? settings.timeoutMs ?? 6_000,
    appInfo: { name: 'Meshfront' },
  });
}
