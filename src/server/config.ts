/**
 * Every commerce-engine setting, read from the environment once and validated with zod.
 * The engine runs in production mode unless told otherwise: `npm start` and `node dist/server/entry.mjs`
 * serve a shop that is safe to expose; `npm run dev` (astro dev sets NODE_ENV=development) and the tests
 * (NODE_ENV=test) get the development conveniences.
 *
 * Settings (all optional):
 *   NODE_ENV                   production (default) | development | test. Production turns off
 *                              introspection and GraphiQL, turns on trusted documents and requires the
 *                              bot check; development and test allow all of that unless told otherwise.
 *   DATABASE_URL               unset → embedded PGlite file database at <MESHFRONT_DATA_DIR>/db;
 *                              postgres://… or postgresql://… → a `pg` connection pool.
 *   DATABASE_POOL_SIZE         max connections of the `pg` pool (default 10).
 *   MESHFRONT_DATA_DIR         runtime data directory (default ./var): the PGlite database and the
 *                              secrets generated when none is configured (files readable by the owner only).
 *   MESHFRONT_CATALOG_DIR      seed catalog directory (default ./content/catalog).
 *   MESHFRONT_SEED_ON_START    seed an empty database from the catalog directory at start (default true).
 *   COMMERCE_DEFAULT_PAGE_SIZE `first`/`last` when the client gives neither (default 10, as WPGraphQL).
 *   COMMERCE_MAX_PAGE_SIZE     larger `first`/`last` values are clamped to this (default 1000, so the
 *                              storefront can load a whole small catalog — ≤ 1,000 products — in one call;
 *                              WPGraphQL's own clamp is 100).
 *   GRAPHQL_INTROSPECTION      true/false; default true except in production.
 *   GRAPHQL_MAX_DEPTH          graphql-armor max depth (default 16; the deepest WooGraphQL storefront
 *                              document, WooNuxt's cart mutations, is 11 deep).
 *   GRAPHQL_MAX_ALIASES        graphql-armor max aliases per operation, counted in every fragment spread
 *                              (default 60; WooNuxt's product page document has 37).
 *   GRAPHQL_MAX_DIRECTIVES     graphql-armor max directives per operation (default 20).
 *   GRAPHQL_MAX_TOKENS         graphql-armor max tokens per document (default 3000; WooNuxt's largest
 *                              document has about 620).
 *   GRAPHQL_MAX_COST           max query cost: fields resolved, list fields counted by the page they can
 *                              return (default 20,000,000; WooNuxt's whole-catalog listing — 1,000
 *                              products, each with up to 100 variations — costs 7.8 million; see
 *                              http/query-cost.ts).
 *   TRUSTED_DOCUMENTS_ONLY     true → only the storefront's operation documents (src/graphql/operations)
 *                              are executed; default true in production, false otherwise.
 *   MESHFRONT_OPERATIONS_DIR   where the trusted documents live (default ./src/graphql/operations).
 *   TRUSTED_CLIENT_DOCUMENTS_DIR  other storefronts' documents the operator registered as trusted too: one
 *                              folder per client with its .graphql/.gql files (default
 *                              <MESHFRONT_DATA_DIR>/trusted-documents; see http/trusted-documents.ts).
 *   CORS_ORIGINS               comma-separated origins allowed to call /graphql with credentials
 *                              (default: none in production; http://localhost:4321,http://localhost:4000
 *                              in development). `*` is refused together with credentials.
 *   SESSION_SECRET             HS256 secret (≥ 32 chars) for `woocommerce-session` JWTs; the account,
 *                              download-link and bot-check keys are derived from it unless set on their
 *                              own. Required in production with DATABASE_URL (every process must share
 *                              it); otherwise one is generated once and kept in
 *                              <MESHFRONT_DATA_DIR>/session-secret (mode 0600).
 *   SESSION_ISSUER             the JWT `iss` claim, checked on the way back in (default PUBLIC_SITE_URL
 *                              or http://localhost:4321).
 *   SESSION_TTL_HOURS          session lifetime (default 48, as WooCommerce).
 *   SESSION_COOKIE             also hand the session token out as the `woocommerce-session` cookie and accept
 *                              it from requests without the header (default true; see session/cookie.ts),
 *                              for same-site storefronts that keep no token themselves.
 *   CATALOG_VERSION_CHECK_MS   how often a process asks the database whether the catalog changed
 *                              (default 1000 ms); cached catalog reads are at most this stale across processes.
 *   SHOP_ALLOWED_COUNTRIES     comma-separated ISO codes the shop sells to (`allowedCountries`), or `all`
 *                              (default: the EU, GB, CH, NO, IS, US, CA, MX, BR, AU, NZ, IN, JP, KR, SG).
 *   PORT / HOST                `npm run api` listen address (default 4000 / 0.0.0.0).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { parseCorsOrigins } from '../lib/http/cors-origins.ts';
import { dataDirSecret, DataDirSecretError } from './data-dir-secret.ts';
import { ALL_COUNTRIES, DEFAULT_ALLOWED_COUNTRIES } from './geo/countries.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL (leave unset for the embedded database)')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  MESHFRONT_DATA_DIR: z.string().min(1).default('var'),
  MESHFRONT_CATALOG_DIR: z.string().min(1).default('content/catalog'),
  MESHFRONT_SEED_ON_START: bool.default(true),
  COMMERCE_DEFAULT_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  COMMERCE_MAX_PAGE_SIZE: z.coerce.number().int().min(1).max(10_000).default(1000),
  GRAPHQL_INTROSPECTION: bool.optional(),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).default(16),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(60),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).default(20),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(3000),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(100).default(20_000_000),
  TRUSTED_DOCUMENTS_ONLY: bool.optional(),
  MESHFRONT_OPERATIONS_DIR: z.string().min(1).default('src/graphql/operations'),
  TRUSTED_CLIENT_DOCUMENTS_DIR: z.string().min(1).optional(),
  CORS_ORIGINS: z.string().optional(),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  SESSION_ISSUER: z.string().url().optional(),
  PUBLIC_SITE_URL: z.string().url().optional(),
  SESSION_COOKIE: bool.optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(48),
  CATALOG_VERSION_CHECK_MS: z.coerce.number().int().min(0).default(1000),
  SHOP_ALLOWED_COUNTRIES: z
    .string()
    .transform((v) =>
      v.trim().toLowerCase() === 'all'
        ? ALL_COUNTRIES
        : v
            .split(',')
            .map((c) => c.trim().toUpperCase())
            .filter(Boolean),
    )
    .refine(
      (list) => list.every((c) => ALL_COUNTRIES.includes(c)),
      'unknown country code (use ISO 3166-1 alpha-2 codes, comma-separated, or "all")',
    )
    .optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
});

export type ServerConfig = {
  env: 'development' | 'test' | 'production';
  isProduction: boolean;
  database: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string; poolSize: number };
  dataDir: string;
  catalogDir: string;
  seedOnStart: boolean;
  defaultPageSize: number;
  maxPageSize: number;
  introspection: boolean;
  limits: { maxDepth: number; maxAliases: number; maxDirectives: number; maxTokens: number; maxCost: number };
  trustedDocumentsOnly: boolean;
  operationsDir: string;
  /** Other storefronts' registered documents: one folder per client (trusted-documents.ts). */
  clientDocumentsDir: string;
  corsOrigins: string[];
  sessionSecret: string;
  sessionIssuer: string;
  sessionTtlSeconds: number;
  sessionCookie: boolean;
  catalogVersionCheckMs: number;
  allowedCountries: string[];
  port: number;
  host: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function generatedSessionSecret(dataDir: string): string {
  try {
    return dataDirSecret(dataDir, 'session-secret', {
      generate: () => crypto.randomBytes(48).toString('base64url'),
      valid: (text) => text.length >= 32,
      onCreate: (file) =>
        console.warn(
          `[meshfront] SESSION_SECRET is not set: generated one in ${file} (keep the data directory private; set SESSION_SECRET to share one secret between engine processes).`,
        ),
    });
  } catch (err) {
    if (err instanceof DataDirSecretError)
      throw new ConfigError(`Invalid commerce engine settings:\n  SESSION_SECRET: not set, and ${err.message}`);
    throw err;
  }
}

/** Parse a settings object (normally process.env). Throws ConfigError listing every bad variable. */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  // Empty strings mean "unset" so `FOO= npm start` behaves like leaving FOO out.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid commerce engine settings:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const dataDir = path.resolve(overrides.dataDir ?? e.MESHFRONT_DATA_DIR);
  const corsOrigins = parseCorsOrigins(e.CORS_ORIGINS, isProduction);
  if (corsOrigins.includes('*'))
    throw new ConfigError(
      'Invalid commerce engine settings:\n  CORS_ORIGINS: "*" cannot be combined with credentials; list the origins',
    );
  let sessionSecret = overrides.sessionSecret ?? e.SESSION_SECRET;
  if (!sessionSecret) {
    // With PostgreSQL several engine processes (on several machines) must share one secret, so it
    // has to be configured. The embedded database means one process on one machine: a random
    // secret kept in the data directory is as good as a configured one (and `npm start` works).
    if (isProduction && e.DATABASE_URL)
      throw new ConfigError(
        'Invalid commerce engine settings:\n  SESSION_SECRET: required in production with DATABASE_URL (at least 32 random characters, the same on every engine process)',
      );
    sessionSecret = generatedSessionSecret(dataDir);
  }
  const config: ServerConfig = {
    env: e.NODE_ENV,
    isProduction,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dir: path.join(dataDir, 'db') },
    dataDir,
    catalogDir: path.resolve(e.MESHFRONT_CATALOG_DIR),
    seedOnStart: e.MESHFRONT_SEED_ON_START,
    defaultPageSize: Math.min(e.COMMERCE_DEFAULT_PAGE_SIZE, e.COMMERCE_MAX_PAGE_SIZE),
    maxPageSize: e.COMMERCE_MAX_PAGE_SIZE,
    introspection: e.GRAPHQL_INTROSPECTION ?? !isProduction,
    limits: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxCost: e.GRAPHQL_MAX_COST,
    },
    trustedDocumentsOnly: e.TRUSTED_DOCUMENTS_ONLY ?? isProduction,
    operationsDir: path.resolve(e.MESHFRONT_OPERATIONS_DIR),
    clientDocumentsDir: path.resolve(e.TRUSTED_CLIENT_DOCUMENTS_DIR ?? path.join(dataDir, 'trusted-documents')),
    corsOrigins,
    sessionSecret,
    sessionIssuer: e.SESSION_ISSUER ?? e.PUBLIC_SITE_URL ?? 'http://localhost:4321',
    sessionTtlSeconds: Math.round(e.SESSION_TTL_HOURS * 3600),
    sessionCookie: e.SESSION_COOKIE ?? true,
    catalogVersionCheckMs: e.CATALOG_VERSION_CHECK_MS,
    allowedCountries: e.SHOP_ALLOWED_COUNTRIES ?? DEFAULT_ALLOWED_COUNTRIES,
    port: e.PORT,
    host: e.HOST,
  };
  return { ...config, ...overrides };
}

let processConfig: ServerConfig | null = null;

/** The process-wide settings, loaded from process.env on first use. */
export function getConfig(): ServerConfig {
  processConfig ??= loadConfig();
  return processConfig;
}
