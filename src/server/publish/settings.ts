/**
 * Publishing settings (empty values count as unset).
 *   MESHFRONT_BUILDS_DIR            where published builds go (default <MESHFRONT_DATA_DIR>/builds)
 *   MESHFRONT_PROJECT_DIR           the site's source tree that `astro build` runs in (default: the working directory)
 *   PUBLISH_KEEP_BUILDS             complete builds kept, the live one included (default 3)
 *   PUBLISH_BUILD_TIMEOUT_MINUTES   a build running longer is stopped and the publish fails (default 20)
 */
import path from 'node:path';
import { z } from 'zod';
import type { ServerConfig } from '../config.ts';
import { buildsDirFromEnv } from './site-switch.ts';

export type PublishSettings = { buildsDir: string; projectDir: string; keepBuilds: number; buildTimeoutMs: number };

const envSchema = z.object({
  MESHFRONT_BUILDS_DIR: z.string().optional(),
  MESHFRONT_PROJECT_DIR: z.string().optional(),
  PUBLISH_KEEP_BUILDS: z.coerce.number().int().min(1).max(50).default(3),
  PUBLISH_BUILD_TIMEOUT_MINUTES: z.coerce.number().int().min(1).max(240).default(20),
});

export function readPublishSettings(
  config: ServerConfig,
  env: Record<string, string | undefined> = process.env,
): PublishSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success)
    throw new Error(
      `Invalid publish settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  return {
    buildsDir: buildsDirFromEnv({
      MESHFRONT_BUILDS_DIR: parsed.data.MESHFRONT_BUILDS_DIR,
      MESHFRONT_DATA_DIR: config.dataDir,
    }),
    projectDir: path.resolve(parsed.data.MESHFRONT_PROJECT_DIR ?? process.cwd()),
    keepBuilds: parsed.data.PUBLISH_KEEP_BUILDS,
    buildTimeoutMs: parsed.data.PUBLISH_BUILD_TIMEOUT_MINUTES * 60_000,
  };
}
