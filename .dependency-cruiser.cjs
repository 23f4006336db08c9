/**
 * The rooms of README.md's "Architecture", as rules `npm test` checks (`npm run lint:deps`, through
 * scripts/dependency-rules.mjs, which also checks the imports of .astro files: dependency-cruiser does
 * not read those).
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular-engine',
      severity: 'error',
      comment:
        'The engine builds its services in dependency order (src/server/engine/): a module cycle in src/server means two ' +
        'rooms lean on each other and one of them is half-initialised when the other loads. Type-only imports are ' +
        'erased at run time and may go both ways.',
      from: { path: '^src/server/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'site-not-engine',
      severity: 'error',
      comment:
        'Pages, islands, components, layouts, stores, src/lib and src/graphql never import the commerce engine: the ' +
        'static site must build and run against an engine elsewhere (COMMERCE_GRAPHQL_URL). The doors are the API ' +
        'routes (src/pages/graphql.ts, src/pages/api/**: HTTP entry glue), the build executor (src/graphql/build.ts, ' +
        'which runs at build time only) and, for the web admin (src/pages/admin/, src/components/admin/), its server ' +
        'glue src/server/admin/web/ only: those two have their own rules below.',
      from: {
        path: '^src/(?!server/)',
        pathNot: [
          '^src/pages/graphql\\.ts$',
          '^src/pages/api/',
          '^src/graphql/build\\.ts$',
          '^src/(pages|components)/admin/',
        ],
      },
      to: { path: '^src/server/' },
    },
    {
      name: 'admin-pages-through-admin-web',
      severity: 'error',
      comment:
        'The web admin pages reach the engine only through its server glue, src/server/admin/web/ (which calls the admin endpoint in process).',
      from: { path: '^src/(pages|components)/admin/' },
      to: { path: '^src/server/', pathNot: '^src/server/admin/web/' },
    },
    {
      name: 'build-executor-through-yoga',
      severity: 'error',
      comment:
        "Without COMMERCE_GRAPHQL_URL the build asks the engine in process, through the Yoga instance's executeInProcess only.",
      from: { path: '^src/graphql/build\\.ts$' },
      to: { path: '^src/server/', pathNot: '^src/server/http/yoga\\.ts$' },
    },
    {
      name: 'domain-tables-are-private',
      severity: 'error',
      comment:
        'Each domain owns its tables (src/server/<domain>/tables.ts, *-tables.ts): another domain reads and writes them ' +
        "only through the owner's service, so the owner's invariants (locks, version bumps, counters) hold. Allowed: " +
        'the schema assembly (src/server/db/schema.ts) and table files themselves (a foreign key names the other table).',
      from: {
        path: '^src/server/([^/]+)/',
        pathNot: ['^src/server/db/schema\\.ts$', '(/tables|-tables)\\.ts$'],
      },
      to: {
        path: '^src/server/.+(/tables|-tables)\\.ts$',
        pathNot: '^src/server/$1/',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Only what the repository wrote: packages and Node built-ins are knip's business (unused, unlisted).
    exclude: { path: '^(node_modules|dist|var|\\.astro)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.d.ts'] },
    skipAnalysisNotInRules: true,
  },
};
