/**
 * The commerce engine: configuration, database (migrated, seeded on first start), services and schema.
 * `createEngine` builds an independent engine (tests make one per file); `getEngine` is the process-wide one.
 */
import type { GraphQLSchema } from 'graphql';
import { CatalogService } from './catalog/service.ts';
import { SeedMissingError } from './catalog/seed-loader.ts';
import { getConfig, type ServerConfig } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/connection.ts';
import { migrate } from './db/migrate.ts';
import { buildSchema } from './schema/index.ts';
import { SessionService } from './session/service.ts';
import type { Services } from './context.ts';
import { createCommerce, type CommerceServices } from './checkout/wire.ts';
import { createAccounts, type AccountServices } from './auth/wire.ts';
import { checkoutAccountHook } from './checkout/accounts.ts';

export type Engine = Services & CommerceServices & {
  accounts: AccountServices;
  database: DatabaseHandle;
  schema: GraphQLSchema;
  close(): Promise<void>;
};

export type EngineOptions = {
  /** Seed an empty database from config.catalogDir (default config.seedOnStart). */
  seed?: boolean;
  log?: (message: string) => void;
};

export async function createEngine(config: ServerConfig = getConfig(), options: EngineOptions = {}): Promise<Engine> {
  const log = options.log ?? ((m: string) => console.log(`[meshfront] ${m}`));
  const database = await openDatabase(config.database);
  try {
    const { applied } = await migrate(database);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
    const catalog = new CatalogService(database.db, { versionCheckMs: config.catalogVersionCheckMs });
    const sessions = new SessionService(database.db, { secret: config.sessionSecret, issuer: config.sessionIssuer, ttlSeconds: config.sessionTtlSeconds });
    if ((options.seed ?? config.seedOnStart) && (await catalog.isEmpty())) {
      try {
        const r = await catalog.seedFromDirectory(config.catalogDir);
        log(`seeded the empty database from ${config.catalogDir}: ${r.products} products, ${r.variations} variations, ${r.categories} categories, ${r.reviews} reviews`);
      } catch (err) {
        // A missing catalog must not keep the engine from starting (the content may come later); a broken one is reported in full.
        if (err instanceof SeedMissingError) log(`not seeding: ${err.message}`);
        else if ((err as Error).message.includes('not empty')) log('another process seeded the catalog first');
        else throw err;
      }
    }
    const commerce = await createCommerce({ database, config, catalog, sessions, seed: options.seed ?? config.seedOnStart, log });
    const accounts = createAccounts({ database, config, catalog, sessions, commerce: commerce.services });
    // "Create an account" at checkout goes through the accounts domain.
    commerce.services.checkout.accounts = checkoutAccountHook(accounts);
    const schema = buildSchema(await catalog.attributeTaxonomies());
    return {
      config,
      database,
      catalog,
      sessions,
      ...commerce.services,
      accounts,
      schema,
      close: async () => {
        await commerce.stop();
        await database.close();
      },
    };
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
}

// Kept on globalThis, not in a module variable: after a publish, scripts/serve.mjs loads the new build's
// server bundle beside the old one in the same process, each with its own copy of this module, and both
// must use one engine (one PGlite handle, one set of background timers).
const SHARED_ENGINE = Symbol.for('meshfront.sharedEngine');
const holder = globalThis as unknown as Record<typeof SHARED_ENGINE, Promise<Engine> | null | undefined>;

/** The process-wide engine, created on first use from the environment. */
export function getEngine(): Promise<Engine> {
  holder[SHARED_ENGINE] ??= createEngine().catch((err) => {
    holder[SHARED_ENGINE] = null;
    throw err;
  });
  return holder[SHARED_ENGINE];
}

/** Closes the process-wide engine if it was started (graceful shutdown; no-op otherwise). */
export async function closeSharedEngine(): Promise<void> {
  const current = holder[SHARED_ENGINE];
  holder[SHARED_ENGINE] = null;
  if (current) await (await current.catch(() => null))?.close();
}
// scripts/serve.mjs runs the engine inside Astro's server bundle, a module graph it cannot import from:
// it finds the closer here on shutdown.
(globalThis as Record<symbol, unknown>)[Symbol.for('meshfront.closeEngine')] = closeSharedEngine;
