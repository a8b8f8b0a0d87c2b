// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');

/**
 * The layering rule as ONE table (DESIGN.md §1): each folder, what it may import of golem's own
 * folders (a folder, or single files of one), and which guarded libraries it may use. Everything
 * else is refused: `import-x/no-restricted-paths` zones and `no-restricted-imports` patterns are
 * derived from this table below. Inside src/core the stack is
 * kit → errors → contract → {codec, tool} → output → engine → durable → agent → index.
 */
const CORE = ['kit', 'errors', 'contract', 'codec', 'tool', 'output', 'engine', 'durable', 'agent'];
/** `src/core/<layer>` and every layer below it. */
const upTo = (layer) => CORE.slice(0, CORE.indexOf(layer)).map((l) => `src/core/${l}`);
/** What an adapter family of src/ may use of the core: its public index and the ports. */
const corePorts = [
  'src/core/index.ts',
  'src/core/contract',
  'src/core/errors',
  'src/core/kit',
  'src/core/tool',
  'src/core/engine',
  'src/core/durable',
  'src/core/agent',
];
/** The provider spec and helpers adapters and tools build on (DESIGN.md §1). */
const coreSpec = [
  'src/core/index.ts',
  'src/core/contract',
  'src/core/errors',
  'src/core/kit',
  'src/core/tool',
];
const LAYERS = [
  { folder: 'src/core/kit', may: [] },
  { folder: 'src/core/errors', may: upTo('errors') },
  { folder: 'src/core/contract', may: upTo('contract') },
  { folder: 'src/core/codec', may: upTo('codec') },
  { folder: 'src/core/tool', may: upTo('codec') },
  { folder: 'src/core/output', may: upTo('output') },
  { folder: 'src/core/engine', may: upTo('engine') },
  { folder: 'src/core/durable', may: upTo('durable') },
  { folder: 'src/core/agent', may: upTo('agent') },
  { folder: 'src/core/index.ts', may: CORE.map((l) => `src/core/${l}`) },
  { folder: 'src/providers', may: coreSpec },
  { folder: 'src/tools', may: coreSpec },
  { folder: 'src/mcp', may: coreSpec },
  { folder: 'src/prices', may: coreSpec },
  { folder: 'src/testing', may: [...corePorts, 'src/providers'] },
  {
    folder: 'src/stores',
    may: [...corePorts, 'src/workflows/index.ts'],
    libraries: ['pg', 'better-sqlite3', 'sqlite-vec', 'ioredis'],
  },
  {
    folder: 'src/otel',
    may: [...corePorts, 'src/providers', 'src/evals/index.ts'],
    libraries: ['@opentelemetry/*'],
  },
  {
    folder: 'src/queue',
    may: [...corePorts, 'src/workflows/index.ts'],
    libraries: ['bullmq', 'ioredis'],
  },
  { folder: 'src/ui', may: corePorts },
  { folder: 'src/memory', may: corePorts },
  { folder: 'src/middleware', may: corePorts, libraries: ['rate-limiter-flexible'] },
  { folder: 'src/workflows', may: corePorts },
  { folder: 'src/evals', may: corePorts },
  { folder: 'src/a2a', may: corePorts },
  { folder: 'src/studio', may: [...corePorts, 'src/ui/index.ts', 'src/evals/index.ts'] },
  {
    folder: 'decorators',
    may: ['src/core/index.ts', 'src/core/kit', 'src/workflows/index.ts', 'src/evals/index.ts'],
    libraries: [
      'reflect-metadata',
      'class-validator',
      'class-transformer',
      'class-validator-jsonschema',
    ],
  },
  {
    folder: 'container',
    may: [
      'src/core/index.ts',
      'src/core/kit',
      'src/providers',
      'src/testing/index.ts',
      'src/mcp/index.ts',
      'src/memory/index.ts',
      'src/workflows/index.ts',
      'src/evals/index.ts',
      'src/a2a/index.ts',
      'src/studio/index.ts',
      'decorators',
    ],
    libraries: [
      'reflect-metadata',
      'class-validator',
      'class-transformer',
      'inversify',
      '@inversifyjs/*',
    ],
  },
  {
    folder: 'nestjs',
    may: [
      'src/core/index.ts',
      'src/core/kit',
      'src/providers/resolve/index.ts',
      'src/providers/resolve/wiring.ts',
      'src/testing/index.ts',
      'src/queue/index.ts',
      'src/memory/index.ts',
      'src/workflows/index.ts',
      'src/a2a/index.ts',
      'decorators/index.ts',
    ],
    libraries: ['reflect-metadata', '@nestjs/*', 'rxjs', 'bullmq', 'ioredis', '@nestjs/bullmq'],
  },
];
/** Libraries only the rows naming them may import. */
const GUARDED = [
  'reflect-metadata',
  'class-validator',
  'class-transformer',
  'class-validator-jsonschema',
  'inversify',
  '@inversifyjs/*',
  '@nestjs/*',
  'rxjs',
  '@opentelemetry/*',
  'bullmq',
  'ioredis',
  '@nestjs/bullmq',
  'pg',
  'better-sqlite3',
  'sqlite-vec',
  'rate-limiter-flexible',
];
/** Every folder or file a row names: the universe a zone refuses from. */
const PLACES = [...new Set(LAYERS.map((row) => row.folder))];
const within = (path, place) => path === place || path.startsWith(`${place}/`);
/** The rules of one row: zones for the places it may not import, patterns for guarded libraries. */
function layerRules(row) {
  const zones = [];
  for (const place of PLACES) {
    if (within(row.folder, place) || within(place, row.folder)) continue;
    const allowed = row.may.filter((m) => within(m, place));
    if (row.may.some((m) => within(place, m))) continue; // the whole place is allowed
    zones.push({
      target: `./${row.folder}`,
      from: `./${place}`,
      ...(allowed.length > 0 && { except: allowed.map((m) => `./${m.slice(place.length + 1)}`) }),
      message: `Layering (eslint.config.js LAYERS): ${row.folder} may import ${row.may.join(', ') || 'nothing of golem'}.`,
    });
  }
  const refused = GUARDED.filter((lib) => !(row.libraries ?? []).includes(lib));
  return {
    files: [row.folder.endsWith('.ts') ? row.folder : `${row.folder}/**/*.ts`],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: refused,
              message: `Layering (eslint.config.js LAYERS): ${row.folder} may not use this library; drivers and frameworks stay in their own folder.`,
            },
          ],
        },
      ],
    },
  };
}

module.exports = tseslint.config(
  // bench/ is its own package (peers' dependencies live there); it is linted by its own scripts.
  // templates/: the files `golem init` copies into a new project, checked by its CI build there.
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'bench/**',
      'templates/**',
      'docs-site/**',
      '**/*.mjs',
    ],
  },
  // Plain JavaScript is limited to the CLI entry (bin/); configuration files are not linted.
  { ignores: ['**/*.js', '!bin/**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked.map((config) => ({
    ...config,
    files: ['**/*.ts', 'studio/**/*.tsx'],
  })),
  {
    files: ['bin/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      ecmaVersion: 2023,
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
        console: 'readonly',
      },
    },
  },
  {
    files: ['**/*.ts', 'studio/**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-invalid-void-type': 'off',
    },
  },
  // No import cycles anywhere (type-only imports excluded: they vanish at runtime).
  {
    files: ['**/*.ts', 'studio/**/*.tsx'],
    plugins: { 'import-x': importX.importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // The layering table: one block per row (plugins come from the cycle block above).
  ...LAYERS.map((row) => ({ plugins: { 'import-x': importX.importX }, ...layerRules(row) })),
  {
    files: ['test/**/*.ts', 'examples/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
