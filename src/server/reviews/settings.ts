/**
 * Review settings, read from the environment (empty values count as unset).
 *   REVIEWS_REQUIRE_APPROVAL   true → new reviews wait for approval (status pending, not shown or counted);
 *                              false (default) → published at once.
 *   REVIEWS_PER_IP_PER_HOUR    reviews one client address may write per hour (default 10).
 */
import { z } from 'zod';

export type ReviewSettings = { requireApproval: boolean; perIpPerHour: number };

const envSchema = z.object({
  REVIEWS_REQUIRE_APPROVAL: z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
    .transform((v) => ['true', '1', 'yes', 'on'].includes(v))
    .default(false),
  REVIEWS_PER_IP_PER_HOUR: z.coerce.number().int().min(0).max(100_000).default(10),
});

export function readReviewSettings(env: Record<string, string | undefined> = process.env): ReviewSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success)
    throw new Error(
      `Invalid review settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  return { requireApproval: parsed.data.REVIEWS_REQUIRE_APPROVAL, perIpPerHour: parsed.data.REVIEWS_PER_IP_PER_HOUR };
}
