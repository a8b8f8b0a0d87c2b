// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');

/** Libraries the engine (src/) must never import: decorators and containers live above it. */
const upperLayerLibraries = [
  'reflect-metadata',
  'class-validator',
  'class-transformer',
  'inversify',
  '@nestjs/*',
  'rxjs',
];

/** The OpenTelemetry API: an optional peer imported only inside src/otel (golem/otel). */
const otelApi = ['@opentelemetry/*'];

/** BullMQ and its Redis client: optional peers imported only inside src/queue (golem/queue). */
const queueLibraries = ['bullmq', 'ioredis', '@nestjs/bullmq'];

/**
 * Layering rule: src <- decorators <- container and src <- decorators <- nestjs (container and
 * nestjs are siblings that never import each other). Adapters import only src/model; common tools
 * and the MCP bridge import only src/model and src/tool.
 * @param {string[]} paths
 * @param {string} message
 */
const forbid = (paths, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: paths, message }] }],
});

module.exports = tseslint.config(
  // bench/ is its own package (peers' dependencies live there); it is linted by its own scripts.
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/**', '**/*.mjs'] },
  // Plain JavaScript is limited to the CLI entry (bin/); configuration files are not linted.
  { ignores: ['**/*.js', '!bin/**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked.map((config) => ({ ...config, files: ['**/*.ts'] })),
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
    files: ['**/*.ts'],
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
    files: ['**/*.ts'],
    plugins: { 'import-x': importX.importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/**/*.ts'],
    rules: forbid(
      [
        ...upperLayerLibraries,
        ...otelApi,
        ...queueLibraries,
        '**/decorators',
        '**/decorators/**',
        '**/container',
        '**/container/**',
        '**/nestjs',
        '**/nestjs/**',
      ],
      'Layering: src/ must not import decorators, container, nestjs or their libraries.',
    ),
  },
  {
    files: ['src/engine/**/*.ts', 'src/model/**/*.ts'],
    rules: forbid(
      [
        ...upperLayerLibraries,
        ...otelApi,
        ...queueLibraries,
        '**/queue',
        '**/queue/**',
        '**/decorators',
        '**/decorators/**',
        '**/container',
        '**/container/**',
        '**/nestjs',
        '**/nestjs/**',
        'better-sqlite3',
        'pg',
        '**/durable',
        '**/durable/**',
        '**/stores/**',
      ],
      'Layering: the engine never imports a run store or its driver (stores are adapters around the engine: src/engine/checkpoint.ts and src/durable/port.ts).',
    ),
  },
  {
    files: ['src/providers/**/*.ts'],
    rules: forbid(
      [
        ...upperLayerLibraries,
        ...otelApi,
        ...queueLibraries,
        '**/engine',
        '**/engine/**',
        '**/agent',
        '**/tool',
        '**/tool/**',
        '**/tools/**',
        '**/mcp/**',
        '**/testing/**',
        '**/output/**',
        '**/decorators/**',
        '**/container/**',
      ],
      'Layering: provider adapters import only src/model.',
    ),
  },
  {
    files: ['src/tools/**/*.ts', 'src/mcp/**/*.ts'],
    rules: forbid(
      [
        ...upperLayerLibraries,
        ...otelApi,
        ...queueLibraries,
        '**/engine',
        '**/engine/**',
        '**/agent',
        '**/providers/**',
        '**/testing/**',
        '**/output/**',
        '**/decorators/**',
        '**/container/**',
      ],
      'Layering: common tools and the MCP bridge import only src/model and src/tool.',
    ),
  },
  {
    files: ['decorators/**/*.ts'],
    rules: forbid(
      [
        ...otelApi,
        ...queueLibraries,
        'inversify',
        '**/container',
        '**/container/**',
        '@nestjs/*',
        '**/nestjs',
        '**/nestjs/**',
      ],
      'Layering: decorators/ must not import container/, nestjs/, inversify or @nestjs/*.',
    ),
  },
  {
    files: ['container/**/*.ts'],
    rules: forbid(
      [...otelApi, ...queueLibraries, '@nestjs/*', '**/nestjs', '**/nestjs/**'],
      'Layering: container/ and nestjs/ are siblings; container/ must not import nestjs/ or @nestjs/*.',
    ),
  },
  {
    files: ['nestjs/**/*.ts'],
    rules: forbid(
      [
        ...otelApi,
        ...queueLibraries,
        'inversify',
        '@inversifyjs/*',
        '**/container',
        '**/container/**',
        '**/src/*/**',
        // golem/queue: type imports, and nestjs/queue-load.ts's require on first use only.
        '!**/src/queue/index',
        '!**/src/providers/resolve',
        '**/src/providers/resolve/*',
        '!**/src/providers/resolve/index',
        '!**/src/testing/index',
        '**/decorators/*',
        '**/decorators/*/**',
        '!**/decorators/index',
      ],
      'Layering: nestjs/ uses the public surface of src/ (index, providers/resolve, testing, queue — loaded on first use) and decorators/ (index), never container/ or inversify.',
    ),
  },
  {
    // golem/otel is the one place the OpenTelemetry API is imported (an adapter around the engine).
    files: ['src/otel/**/*.ts'],
    rules: forbid(
      [
        ...upperLayerLibraries,
        ...queueLibraries,
        '**/decorators',
        '**/decorators/**',
        '**/container',
        '**/container/**',
        '**/nestjs',
        '**/nestjs/**',
        '**/durable/**',
        '**/stores/**',
      ],
      'Layering: src/otel is an adapter around the engine; it must not import decorators, container, nestjs or a store.',
    ),
  },
  {
    // golem/queue is the one place BullMQ and ioredis are imported (an adapter around the engine).
    files: ['src/queue/**/*.ts'],
    rules: forbid(
      [
        ...upperLayerLibraries,
        ...otelApi,
        '**/decorators',
        '**/decorators/**',
        '**/container',
        '**/container/**',
        '**/nestjs',
        '**/nestjs/**',
        '**/stores/**',
      ],
      'Layering: src/queue is an adapter around the engine and the run-store port; it must not import decorators, container, nestjs, OpenTelemetry or a store driver.',
    ),
  },
  {
    files: ['test/**/*.ts', 'examples/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
