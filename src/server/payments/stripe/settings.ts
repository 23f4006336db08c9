/**
 * Settings of the card (Stripe) gateway, read from the environment and validated with zod.
 * The lead folds these into src/server/config.ts; until then `loadStripeSettings(process.env)` works alone.
 *
 *   STRIPE_SECRET_KEY              sk_live_… / sk_test_… (or a restricted rk_… key). The card gateway is
 *                                  enabled when it is set, off otherwise.
 *   STRIPE_WEBHOOK_SECRET          whsec_… of the webhook endpoint; signatures of incoming events are
 *                                  checked against it. Required in production when the gateway is on.
 *   PUBLIC_STRIPE_PUBLISHABLE_KEY  pk_live_… / pk_test_…, handed to Stripe.js in the browser (PUBLIC_ so
 *                                  Astro may expose it). Required in production when the gateway is on.
 *   STRIPE_API_HOST                API host for the SDK; unset = Stripe's real API (api.stripe.com).
 *   STRIPE_API_PORT                API port; unset = the SDK default (443).
 *   STRIPE_API_PROTOCOL            http | https; unset = https. Tests point these three at the loopback
 *                                  stand-in (tests/fixtures/stripe-server.ts); the code path is the same.
 *   STRIPE_CURRENCY                ISO 4217 code, lower-case, of PaymentIntents (default eur).
 *   STRIPE_RECOVERY_AFTER_SECONDS  a recorded card Checkout still unfinished after this long is completed
 *                                  or refunded by the recovery sweep (recovery.ts; default 120).
 *   STRIPE_RECOVERY_MAX_ATTEMPTS   how often the sweep tries one such Checkout when Stripe or the database
 *                                  fails, the wait doubling each time (default 8, about four hours in all);
 *                                  then its record is dropped and the reconciliation refunds the payment.
 *   STRIPE_RECONCILE_AFTER_SECONDS a payment taken this long ago that never reached a Checkout (browser
 *                                  closed, engine down) is refunded by the reconciliation (reconcile.ts;
 *                                  default 900). Counted from the charge, i.e. from when the customer paid.
 *   STRIPE_RECONCILE_LOOKBACK_HOURS how far back the reconciliation lists PaymentIntents at Stripe
 *                                  (default 24; 0 turns the reconciliation off). Must exceed the above.
 *   STRIPE_TIMEOUT_MS              how long one request to Stripe may take (default 6000).
 *   STRIPE_MAX_NETWORK_RETRIES     how often the SDK sends a request again after a network error, a
 *                                  timeout or a 5xx/409/429 answer (default 1). Safe: every POST carries an
 *                                  idempotency key. Together with the timeout this bounds how long a shopper
 *                                  waits for Stripe (defaults: about 13 s, within the storefront's 15 s); it
 *                                  must stay below a minute (the refund lease of reconcile.ts is 90 s) and
 *                                  below STRIPE_RECOVERY_AFTER_SECONDS. Stripe down: the breaker of
 *                                  service-breaker.ts stops asking it for a while.
 */
import { z } from 'zod';

export class StripeSettingsError extends Error {
  override name = 'StripeSettingsError';
}

export type StripeSettings = {
  /** True when a secret key is configured. */
  enabled: boolean;
  secretKey: string | null;
  webhookSecret: string | null;
  publishableKey: string | null;
  /** Only the fields that were set; empty = Stripe's real API. */
  api: { host?: string; port?: number; protocol?: 'http' | 'https' };
  currency: string;
  /** True when the secret key is a test-mode key. */
  testMode: boolean;
  /** STRIPE_RECOVERY_AFTER_SECONDS: a card checkout still unfinished after this long had its process die (recovery.ts). */
  recoveryAfterSeconds: number;
  /** STRIPE_RECOVERY_MAX_ATTEMPTS: failed recovery runs of one card checkout before its record is dropped. */
  recoveryMaxAttempts: number;
  /** STRIPE_RECONCILE_AFTER_SECONDS: a paid PaymentIntent with no Checkout this long after the charge is refunded (reconcile.ts). */
  reconcileAfterSeconds: number;
  /** STRIPE_RECONCILE_LOOKBACK_HOURS: how far back the reconciliation lists PaymentIntents; 0 = off. */
  reconcileLookbackHours: number;
  /** STRIPE_TIMEOUT_MS: one request's time limit. */
  timeoutMs: number;
  /** STRIPE_MAX_NETWORK_RETRIES: the SDK's retries of one request. */
  maxNetworkRetries: number;
};

/** The longest one Stripe call may take with its retries (the SDK waits at most 2 s between two tries). */
function stripeCallBudgetMs(settings: Pick<StripeSettings, 'timeoutMs' | 'maxNetworkRetries'>): number {
  return (settings.maxNetworkRetries + 1) * settings.timeoutMs + settings.maxNetworkRetries * 2_000;
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(
      /^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/,
      'must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_… key)',
    )
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=_-]+$/, 'must be a webhook signing secret (whsec_…)')
    .optional(),
  PUBLIC_STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_[A-Za-z0-9_]+$/, 'must be a publishable key (pk_test_… or pk_live_…)')
    .optional(),
  STRIPE_API_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:]+\]$/, 'must be a host name or IP address, without scheme or port')
    .optional(),
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  STRIPE_CURRENCY: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 currency code such as eur')
    .transform((c) => c.toLowerCase())
    .default('eur'),
  STRIPE_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(6_000),
  STRIPE_MAX_NETWORK_RETRIES: z.coerce.number().int().min(0).max(5).default(1),
  // Longer than any live checkout can take (a Stripe call with its retries, see stripeCallBudgetMs).
  STRIPE_RECOVERY_AFTER_SECONDS: z.coerce.number().int().min(1).default(120),
  STRIPE_RECOVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
  // Longer than a customer takes from paying to the Checkout arriving, including a 3-D Secure return and
  // pressing "Place order" again after a network error: refunding sooner would refuse that Checkout.
  STRIPE_RECONCILE_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1 second')
    .max(7 * 86_400, 'must be at most 7 days (604800)')
    .default(900),
  // Every listed intent is one more object to page through at Stripe on each sweep; a day covers an
  // engine outage overnight. Sessions (SESSION_TTL_HOURS, default 48) outlive it, so a paying session is there.
  STRIPE_RECONCILE_LOOKBACK_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(720, 'must be at most 720 hours (30 days)')
    .default(24),
});

export function loadStripeSettings(source: Record<string, string | undefined> = process.env): StripeSettings {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    throw new StripeSettingsError(
      `Invalid Stripe settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  }
  const e = parsed.data;
  const enabled = e.STRIPE_SECRET_KEY !== undefined;
  const problems: string[] = [];
  if (enabled && e.NODE_ENV === 'production') {
    if (!e.STRIPE_WEBHOOK_SECRET)
      problems.push(
        "  STRIPE_WEBHOOK_SECRET: required in production when STRIPE_SECRET_KEY is set (the webhook endpoint's whsec_… secret)",
      );
    if (!e.PUBLIC_STRIPE_PUBLISHABLE_KEY)
      problems.push(
        '  PUBLIC_STRIPE_PUBLISHABLE_KEY: required in production when STRIPE_SECRET_KEY is set (the browser needs it)',
      );
    if (e.STRIPE_API_PROTOCOL === 'http')
      problems.push('  STRIPE_API_PROTOCOL: http is for local test servers only, not production');
  }
  const testMode = /^(sk|rk)_test_/.test(e.STRIPE_SECRET_KEY ?? '');
  if (
    enabled &&
    e.PUBLIC_STRIPE_PUBLISHABLE_KEY &&
    testMode !== e.PUBLIC_STRIPE_PUBLISHABLE_KEY.startsWith('pk_test_')
  ) {
    problems.push(
      '  PUBLIC_STRIPE_PUBLISHABLE_KEY: test and live keys are mixed (both must be test keys or both live keys)',
    );
  }
  if (
    e.STRIPE_RECONCILE_LOOKBACK_HOURS > 0 &&
    e.STRIPE_RECONCILE_LOOKBACK_HOURS * 3600 <= e.STRIPE_RECONCILE_AFTER_SECONDS
  ) {
    problems.push(
      '  STRIPE_RECONCILE_LOOKBACK_HOURS: must cover more than STRIPE_RECONCILE_AFTER_SECONDS, or no unclaimed payment is ever old enough to be refunded (0 turns the reconciliation off)',
    );
  }
  const budget = stripeCallBudgetMs({
    timeoutMs: e.STRIPE_TIMEOUT_MS,
    maxNetworkRetries: e.STRIPE_MAX_NETWORK_RETRIES,
  });
  if (budget > 60_000 || budget >= e.STRIPE_RECOVERY_AFTER_SECONDS * 1000)
    problems.push(
      `  STRIPE_TIMEOUT_MS, STRIPE_MAX_NETWORK_RETRIES: one Stripe call may take ${Math.ceil(budget / 1000)} s with its retries; it must stay below 60 s and below STRIPE_RECOVERY_AFTER_SECONDS (the recovery would take over a checkout still waiting for Stripe)`,
    );
  if (problems.length) throw new StripeSettingsError(`Invalid Stripe settings:\n${problems.join('\n')}`);
  const api: StripeSettings['api'] = {};
  if (e.STRIPE_API_HOST) api.host = e.STRIPE_API_HOST;
  if (e.STRIPE_API_PORT) api.port = e.STRIPE_API_PORT;
  if (e.STRIPE_API_PROTOCOL) api.protocol = e.STRIPE_API_PROTOCOL;
  return {
    enabled,
    secretKey: e.STRIPE_SECRET_KEY ?? null,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
    publishableKey: e.PUBLIC_STRIPE_PUBLISHABLE_KEY ?? null,
    api,
    currency: e.STRIPE_CURRENCY,
    testMode,
    recoveryAfterSeconds: e.STRIPE_RECOVERY_AFTER_SECONDS,
    recoveryMaxAttempts: e.STRIPE_RECOVERY_MAX_ATTEMPTS,
    reconcileAfterSeconds: e.STRIPE_RECONCILE_AFTER_SECONDS,
    reconcileLookbackHours: e.STRIPE_RECONCILE_LOOKBACK_HOURS,
    timeoutMs: e.STRIPE_TIMEOUT_MS,
    maxNetworkRetries: e.STRIPE_MAX_NETWORK_RETRIES,
  };
}
