// Hostile input, property-based (fast-check): generated variables for every storefront operation
// (src/graphql/operations) sent through the real /graphql route, and generated bodies for the REST routes
// (/api/contact-form/create, /api/newsletter/*, /api/stripe/webhook — signed and unsigned —,
// /api/downloads/[token]) through their real Astro route modules. Every answer is data or a clear error:
// never a 5xx, never a stack trace, never the masked "Unexpected error." (which means something threw that
// should have been a clear message). Afterwards the database is consistent (tests/fixtures/consistency.ts).
// Oversized bodies, deep or aliased queries and a huge `first` are refused quickly.
//
// Runs per operation: 40 (about 1,700 requests in all); MESHFRONT_LONG_TESTS=1 runs 400 each.
import crypto from 'node:crypto';
import fc from 'fast-check';
import { parse, type GraphQLSchema, type TypeNode, type VariableDefinitionNode } from 'graphql';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../fixtures/db.ts';
import { consistencyProblems, stockLevels, type Query, type StockLevels } from '../fixtures/consistency.ts';
import { FIXTURE_CATALOG } from './harness.ts';
import { op } from './accounts-helpers.ts';
import { composeOperations } from '../../src/server/http/trusted-documents.ts';
import type { Engine } from '../../src/server/engine/index.ts';

const LONG = process.env.MESHFRONT_LONG_TESTS === '1';
const RUNS = LONG ? 400 : 40;
const REST_RUNS = LONG ? 1500 : 150;
vi.setConfig({ testTimeout: LONG ? 3_600_000 : 600_000, hookTimeout: 300_000 });

const WEBHOOK_SECRET = 'whsec_hostileinput0123456789abcdef';
const OPERATIONS_DIR = new URL('../../src/graphql/operations', import.meta.url).pathname;

let db: TestDatabase;
let engine: Engine;
let query: Query;
let initialStock: StockLevels;
type Route = (context: Record<string, unknown>) => Promise<Response> | Response;
let routes: Record<string, Route>;
let productIds: number[] = [];
let ipCounter = 0;
const nextIp = () => `198.18.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

beforeAll(async () => {
  db = await createTestDatabase();
  // The route modules use the process-wide engine: point it at this file's database before first use.
  Object.assign(process.env, {
    NODE_ENV: 'test',
    ...db.env,
    MESHFRONT_CATALOG_DIR: FIXTURE_CATALOG,
    SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    SESSION_ISSUER: 'http://meshfront.test',
    PUBLIC_SITE_URL: 'http://meshfront.test',
    PASSWORD_SCRYPT_LOG2N: '10',
    ORDER_SWEEP_INTERVAL_MS: '0',
    MESHFRONT_LOG_ERRORS: '0',
    // Card payments on, pointed at a closed port: intents fail with a clear message, webhooks are checked.
    STRIPE_SECRET_KEY: 'sk_test_hostileinput000000',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: '9',
    STRIPE_API_PROTOCOL: 'http',
  });
  const { getEngine } = await import('../../src/server/engine/index.ts');
  engine = await getEngine();
  query = async (text) => {
    const r = await engine.database.db.execute(sql.raw(text));
    return ((r as { rows?: Record<string, unknown>[] }).rows ?? (r as unknown as Record<string, unknown>[])) as Record<
      string,
      unknown
    >[];
  };
  initialStock = await stockLevels(query);
  productIds = [...(await engine.catalog.snapshot()).productsById.keys()];
  routes = {
    graphql: (await import('../../src/pages/graphql.ts')).POST as unknown as Route,
    contact: (await import('../../src/pages/api/contact-form/create.ts')).POST as unknown as Route,
    subscribe: (await import('../../src/pages/api/newsletter/subscribe.ts')).POST as unknown as Route,
    confirm: (await import('../../src/pages/api/newsletter/confirm.ts')).GET as unknown as Route,
    unsubscribeGet: (await import('../../src/pages/api/newsletter/unsubscribe.ts')).GET as unknown as Route,
    unsubscribePost: (await import('../../src/pages/api/newsletter/unsubscribe.ts')).POST as unknown as Route,
    webhook: (await import('../../src/pages/api/stripe/webhook.ts')).POST as unknown as Route,
    download: (await import('../../src/pages/api/downloads/[token].ts')).GET as unknown as Route,
  };
});
afterAll(async () => {
  const { closeSharedEngine } = await import('../../src/server/engine/index.ts');
  await closeSharedEngine();
  await db?.drop();
});

/** Calls an Astro route module the way Astro does: a Request, the client address, route params. */
async function call(route: Route, request: Request, params: Record<string, string> = {}) {
  const response = await route({
    request,
    url: new URL(request.url),
    clientAddress: nextIp(),
    params,
    isPrerendered: false,
  });
  const text = await response.text();
  return { status: response.status, text };
}

/** The promise every answer keeps: not a server error, no stack trace, no masked unexpected error. */
function expectClearAnswer(what: string, answer: { status: number; text: string }) {
  const where = `${what} → ${answer.status} ${answer.text.slice(0, 400)}`;
  expect(answer.status, where).toBeLessThan(500);
  expect(answer.text, where).not.toMatch(
    /\n\s+at [\w$.<>]+ \(|\bat (?:file|node):|Unexpected error\.|Something went wrong/,
  );
}

// ---- GraphQL: arbitraries from the operations' variable types ----------------------------------------

const nasty = fc.constantFrom(
  '',
  ' ',
  "' OR 1=1 --",
  '"; drop table orders; --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '\u0000',
  '\uFFFF\uD800',
  '%s%s%s%n',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal Log4Shell probe, not a template
  '${jndi:ldap://x}',
  'NaN',
  '-1',
  '1e309',
  '0x7fffffff',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'x'.repeat(10_000),
  `wc_order_${'A'.repeat(13)}`,
  'cHJvZHVjdDox',
  'dXNlcjox',
  'order:1',
  'Session abc',
  'ß'.repeat(300),
);
const anyString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 2, arbitrary: nasty },
);
const anyInt = fc.oneof(
  fc.integer({ min: -3, max: 200 }),
  fc.constantFrom(0, -1, 2 ** 31 - 1, -(2 ** 31)),
  fc.integer(),
);
const idString = fc.oneof(
  anyString,
  anyInt.map(String),
  fc.constantFrom(...['1', '2', '17']).map((s) => s),
);

function arbitraryFor(schema: GraphQLSchema, type: TypeNode, depth = 0): fc.Arbitrary<unknown> {
  if (type.kind === 'NonNullType') return arbitraryFor(schema, type.type, depth);
  const inner = (): fc.Arbitrary<unknown> => {
    if (type.kind === 'ListType')
      return fc.array(arbitraryFor(schema, type.type, depth + 1), { maxLength: depth > 2 ? 1 : 4 });
    const name = type.name.value;
    const named = schema.getType(name) as unknown as Record<string, unknown> | undefined;
    if (!named) throw new Error(`unknown type ${name}`);
    if (typeof named.getValues === 'function')
      return fc.constantFrom(...(named.getValues as () => { name: string }[])().map((v) => v.name));
    if (typeof named.getFields === 'function') {
      const fields = (named.getFields as () => Record<string, { type: unknown; astNode?: { type: TypeNode } }>)();
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [field, def] of Object.entries(fields)) {
        if (!def.astNode || depth > 3) continue;
        shape[field] = arbitraryFor(schema, def.astNode.type, depth + 1);
        if (def.astNode.type.kind === 'NonNullType') required.push(field);
      }
      return fc.record(shape, { requiredKeys: required });
    }
    switch (name) {
      case 'Int':
        return anyInt;
      case 'Float':
        return fc.oneof(fc.double({ noNaN: true }), anyInt);
      case 'Boolean':
        return fc.boolean();
      case 'ID':
        return idString;
      default:
        return anyString;
    }
  };
  return fc.oneof({ weight: 8, arbitrary: inner() }, { weight: 1, arbitrary: fc.constant(null) });
}

/** Now and then a value of the wrong type altogether (the engine must answer with a coercion error). */
function withTypeConfusion(
  arb: fc.Arbitrary<Record<string, unknown>>,
  names: string[],
): fc.Arbitrary<Record<string, unknown>> {
  if (!names.length) return arb;
  return fc.oneof(
    { weight: 9, arbitrary: arb },
    {
      weight: 1,
      arbitrary: fc
        .tuple(arb, fc.constantFrom(...names), fc.jsonValue({ maxDepth: 3 }))
        .map(([v, k, x]) => ({ ...v, [k]: x })),
    },
  );
}

const operations = composeOperations(OPERATIONS_DIR)
  .map((o) => o.name)
  .sort();

describe('every storefront operation, generated variables', () => {
  it('covers all operations in src/graphql/operations', () => {
    expect(operations.length).toBeGreaterThanOrEqual(30);
  });

  it.each(operations)('%s answers data or a clear error', async (name) => {
    const document = op(name);
    const definition = parse(document).definitions.find((d) => d.kind === 'OperationDefinition') as {
      variableDefinitions?: readonly VariableDefinitionNode[];
    };
    const vars = definition.variableDefinitions ?? [];
    const shape: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const v of vars) {
      shape[v.variable.name.value] = arbitraryFor(engine.schema, v.type);
      if (v.type.kind === 'NonNullType' && !v.defaultValue) required.push(v.variable.name.value);
    }
    // Real product ids often enough that the resolvers get past "not found".
    if ('productId' in shape) shape.productId = fc.oneof(fc.constantFrom(...productIds), anyInt);
    const variables = withTypeConfusion(fc.record(shape, { requiredKeys: required }), Object.keys(shape));
    // One session for the whole run, so cart-changing operations meet a cart now and then.
    let session: string | null = null;
    let bearer: string | null = null;
    await fc.assert(
      fc.asyncProperty(variables, fc.boolean(), async (vs, withSession) => {
        const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
        if (withSession && session) headers['woocommerce-session'] = `Session ${session}`;
        if (bearer) headers.authorization = `Bearer ${bearer}`;
        const request = new Request('http://meshfront.test/graphql', {
          method: 'POST',
          headers,
          body: JSON.stringify({ query: document, variables: vs }),
        });
        const response = await routes.graphql!({
          request,
          url: new URL(request.url),
          clientAddress: nextIp(),
          params: {},
        });
        const issued = response.headers.get('woocommerce-session');
        const answer = { status: response.status, text: await response.text() };
        if (issued) session = issued;
        expectClearAnswer(`${name}(${JSON.stringify(vs).slice(0, 300)})`, answer);
        const body = JSON.parse(answer.text) as {
          data?: Record<string, { authToken?: string } | null> | null;
          errors?: { message: string }[];
        };
        expect(body.data !== undefined || (body.errors?.length ?? 0) > 0, answer.text.slice(0, 300)).toBe(true);
        for (const e of body.errors ?? []) expect(typeof e.message === 'string' && e.message.length > 0).toBe(true);
        const token =
          body.data &&
          Object.values(body.data).find((v) => v && typeof v === 'object' && typeof v.authToken === 'string')
            ?.authToken;
        if (token) bearer = token;
      }),
      { numRuns: RUNS, seed: Number(process.env.MESHFRONT_FC_SEED ?? Date.now() % 2 ** 31) },
    );
  });
});

// ---- REST ------------------------------------------------------------------------------------------

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        firstName: anyString,
        lastName: anyString,
        email: anyString,
        phone: anyString,
        message: anyString,
        'g-recaptcha-response': anyString,
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  fc
    .record({ email: anyString, locale: anyString, consent: fc.oneof(fc.boolean(), anyString) }, { requiredKeys: [] })
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
  fc.constantFrom('{', '[', '{"a":', 'null', '"x"', '1e999999', '{"__proto__":{"admin":true}}', '\u0000'),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
  'application/json; charset=utf-16',
);

function post(url: string, body: string, type: string, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { origin: 'http://meshfront.test', ...extra };
  if (type) headers['content-type'] = type;
  return new Request(url, { method: 'POST', headers, body });
}

describe('REST routes, generated bodies', () => {
  it('/api/contact-form/create', async () => {
    await fc.assert(
      fc.asyncProperty(jsonBody, contentType, async (body, type) => {
        expectClearAnswer(
          `contact ${type} ${body.slice(0, 200)}`,
          await call(routes.contact!, post('http://meshfront.test/api/contact-form/create', body, type)),
        );
      }),
      { numRuns: REST_RUNS },
    );
  });

  it('/api/newsletter/subscribe, confirm and unsubscribe', async () => {
    // A URL can only carry well-formed text (encodeURIComponent refuses lone surrogates, as browsers do).
    const token = fc.oneof(anyString, fc.stringMatching(/^[A-Za-z0-9_-]{20,64}$/)).filter((t) => t.isWellFormed());
    await fc.assert(
      fc.asyncProperty(jsonBody, contentType, token, async (body, type, t) => {
        expectClearAnswer(
          `subscribe ${body.slice(0, 200)}`,
          await call(routes.subscribe!, post('http://meshfront.test/api/newsletter/subscribe', body, type)),
        );
        const q = `http://meshfront.test/api/newsletter/confirm?token=${encodeURIComponent(t)}`;
        expectClearAnswer(`confirm ${t.slice(0, 100)}`, await call(routes.confirm!, new Request(q)));
        const u = `http://meshfront.test/api/newsletter/unsubscribe?token=${encodeURIComponent(t)}`;
        expectClearAnswer(`unsubscribe GET ${t.slice(0, 100)}`, await call(routes.unsubscribeGet!, new Request(u)));
        expectClearAnswer(
          `unsubscribe POST ${body.slice(0, 100)}`,
          await call(routes.unsubscribePost!, post(u, body, type)),
        );
      }),
      { numRuns: REST_RUNS },
    );
  });

  it('/api/stripe/webhook: unsigned, wrongly signed and correctly signed garbage', async () => {
    const sign = (payload: string, secret = WEBHOOK_SECRET, t = Math.floor(Date.now() / 1000)) =>
      `t=${t},v1=${crypto.createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
    // Signed events of the types the engine acts on, with generated objects: the signature is right, the content is not.
    const eventType = fc.constantFrom(
      'payment_intent.succeeded',
      'payment_intent.payment_failed',
      'charge.refunded',
      'customer.created',
      '',
    );
    const object = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        {
          id: fc.oneof(anyString, fc.constantFrom('pi_123', 'ch_123')),
          object: fc.constantFrom('payment_intent', 'charge'),
          amount: fc.oneof(anyInt, anyString),
          amount_received: fc.oneof(anyInt, anyString),
          amount_refunded: fc.oneof(anyInt, anyString),
          currency: fc.oneof(fc.constantFrom('eur', 'usd'), anyString),
          status: anyString,
          payment_intent: fc.oneof(anyString, fc.constant(null)),
          metadata: fc.oneof(
            fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 })),
            anyString,
            fc.constant(null),
          ),
          last_payment_error: fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
          refunded: fc.oneof(fc.boolean(), anyString),
        },
        { requiredKeys: [] },
      ),
    );
    const event = fc.record({
      id: fc.oneof(fc.constant(undefined), anyString),
      type: eventType,
      created: anyInt,
      livemode: fc.boolean(),
      object: fc.constant('event'),
      data: fc.oneof(fc.record({ object }), fc.jsonValue({ maxDepth: 2 })),
    });
    const signature = fc.constantFrom('none', 'garbage', 'wrong-secret', 'old', 'right');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          event.map((e) => JSON.stringify(e)),
          jsonBody,
        ),
        signature,
        async (payload, how) => {
          const headers: Record<string, string> = {};
          if (how === 'garbage') headers['stripe-signature'] = 't=abc,v1=zz';
          if (how === 'wrong-secret') headers['stripe-signature'] = sign(payload, 'whsec_other');
          if (how === 'old') headers['stripe-signature'] = sign(payload, WEBHOOK_SECRET, 1_000_000_000);
          if (how === 'right') headers['stripe-signature'] = sign(payload);
          const answer = await call(
            routes.webhook!,
            post('http://meshfront.test/api/stripe/webhook', payload, 'application/json', headers),
          );
          expectClearAnswer(`webhook ${how} ${payload.slice(0, 300)}`, answer);
          if (how !== 'right') expect(answer.status).toBe(400);
        },
      ),
      { numRuns: REST_RUNS * 2 },
    );
  });

  it('/api/downloads/[token]', async () => {
    const token = fc
      .oneof(
        anyString,
        fc
          .tuple(fc.base64String({ maxLength: 80 }), fc.base64String({ maxLength: 50 }))
          .map(([a, b]) => `${a}.${b}`.replace(/[+/=]/g, 'x')),
      )
      .filter((t) => t.isWellFormed());
    await fc.assert(
      fc.asyncProperty(token, async (t) => {
        const url = `http://meshfront.test/api/downloads/${encodeURIComponent(t)}`;
        const answer = await call(routes.download!, new Request(url), { token: t });
        expectClearAnswer(`download ${t.slice(0, 100)}`, answer);
        expect(answer.status).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: REST_RUNS },
    );
  });
});

describe('cheap refusals', () => {
  const gql = async (body: string, headers: Record<string, string> = {}) => {
    const started = performance.now();
    const request = new Request('http://meshfront.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    const response = await routes.graphql!({ request, url: new URL(request.url), clientAddress: nextIp(), params: {} });
    return { status: response.status, text: await response.text(), ms: performance.now() - started };
  };

  it('an oversized body, a deep query, many aliases and a huge `first` are refused quickly; huge `first` is clamped', async () => {
    const big = await gql(JSON.stringify({ query: '{ __typename }', padding: 'x'.repeat(300 * 1024) }));
    expect(big.status).toBe(413);
    let deep = 'databaseId';
    for (let i = 0; i < 40; i++) deep = `product { node { ${deep} } }`;
    const deepQ = await gql(JSON.stringify({ query: `{ cart { contents { nodes { ${deep} } } } }` }));
    // Whichever limit trips first (nesting multiplies the cost as well).
    expect(deepQ.text).toMatch(/Query depth limit of \d+ exceeded|Query Cost limit of \d+ exceeded/);
    const aliases = Array.from({ length: 500 }, (_, i) => `a${i}: products(first: 100) { nodes { databaseId } }`).join(
      ' ',
    );
    const aliasQ = await gql(JSON.stringify({ query: `{ ${aliases} }` }));
    expect(aliasQ.text).toMatch(/Aliases limit of \d+ exceeded|Token limit|cost/i);
    const huge = await gql(
      JSON.stringify({
        query: 'query($n: Int) { products(first: $n) { nodes { databaseId } } }',
        variables: { n: 2 ** 31 - 1 },
      }),
    );
    expect(huge.status).toBe(200);
    const nodes = JSON.parse(huge.text).data.products.nodes as unknown[];
    expect(nodes.length).toBeLessThanOrEqual(1000);
    for (const r of [big, deepQ, aliasQ]) {
      expectClearAnswer('refusal', { status: r.status === 413 ? 400 : r.status, text: r.text });
      expect(r.ms).toBeLessThan(2000);
    }
  });
});

describe('afterwards', () => {
  it('the database is consistent: no half orders, stock moved only by orders', async () => {
    expect(await consistencyProblems(query, initialStock)).toEqual([]);
  });
});
