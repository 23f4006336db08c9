/**
 * A circuit breaker per outside service (Stripe, the Chainweb node, the bot check's siteverify, each
 * login provider), on cockatiel's: after SERVICE_BREAKER_FAILURES outages in a row — no connection, a
 * timeout, a 5xx or 429 answer; a refusal such as a declined card is no outage — calls fail at once for
 * SERVICE_BREAKER_COOLDOWN_MS instead of each waiting for its timeout, then one call is let through to
 * try the service again (and closes the breaker when it works). A shopper is told the service is not
 * available at once instead of after the timeouts and retries; the service gets room to come back.
 *
 * Each service keeps its own timeouts and retries (where retrying is safe); the breaker sits outside
 * them, so one call counts once, however often it was retried. What to do when a call is refused is the
 * caller's (`ServiceUnavailableError`).
 *
 * Settings (read with zod):
 *   SERVICE_BREAKER_FAILURES     outages in a row that open a breaker (default 5; 0 = no breakers)
 *   SERVICE_BREAKER_COOLDOWN_MS  how long an open breaker refuses calls before trying again (default 30000)
 */
import { BrokenCircuitError, CircuitState, circuitBreaker, ConsecutiveBreaker, handleWhen } from 'cockatiel';
import { z } from 'zod';

export type BreakerSettings = { failures: number; cooldownMs: number };

const envSchema = z.object({
  SERVICE_BREAKER_FAILURES: z.coerce.number().int().min(0).max(1000).default(5),
  SERVICE_BREAKER_COOLDOWN_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
});

function readBreakerSettings(env: Record<string, string | undefined> = process.env): BreakerSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success)
    throw new Error(
      `Invalid outside-service settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  return { failures: parsed.data.SERVICE_BREAKER_FAILURES, cooldownMs: parsed.data.SERVICE_BREAKER_COOLDOWN_MS };
}

/** A call refused because the service failed too often just now. */
export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError';
  constructor(
    readonly service: string,
    readonly retryAfterMs: number,
  ) {
    super(`${service} is not answering at the moment; calls are paused for ${Math.ceil(retryAfterMs / 1000)} s.`);
  }
}

export type ServiceBreaker = {
  /** Runs `call` unless the breaker is open (then ServiceUnavailableError at once). */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** True while calls are refused. */
  readonly isOpen: boolean;
};

export function serviceBreaker(
  service: string,
  options: {
    /** Whether an error means the service is down or overloaded (counted), not that it refused this call. */
    isOutage: (error: unknown) => boolean;
    settings?: BreakerSettings;
    log?: (message: string) => void;
  },
): ServiceBreaker {
  const settings = options.settings ?? readBreakerSettings();
  const log = options.log ?? ((m: string) => console.warn(`[meshfront] ${m}`));
  if (settings.failures === 0) return { run: (call) => call(), isOpen: false };
  const policy = circuitBreaker(handleWhen(options.isOutage), {
    halfOpenAfter: settings.cooldownMs,
    breaker: new ConsecutiveBreaker(settings.failures),
  });
  policy.onBreak(() =>
    log(
      `${service} failed ${settings.failures} times in a row: calls to it fail at once for ${Math.round(settings.cooldownMs / 1000)} s`,
    ),
  );
  policy.onReset(() => log(`${service} answers again: calls to it go through again`));
  return {
    async run(call) {
      try {
        return await policy.execute(() => call());
      } catch (err) {
        if (err instanceof BrokenCircuitError) throw new ServiceUnavailableError(service, settings.cooldownMs);
        throw err;
      }
    },
    get isOpen() {
      return policy.state === CircuitState.Open;
    },
  };
}
