// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

/** Libraries the engine (src/) must never import: decorators and containers live above it. */
const upperLayerLibraries = [
  'reflect-metadata',
  'class-validator',
  'class-transformer',
  'inversify',
];

/**
 * Layering rule: src <- decorators <- container. Adapters import only src/model; common tools
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
  {
    files: ['src/**/*.ts'],
    rules: forbid(
      [
        ...upperLayerLibraries,
        '**/decorators',
        '**/decorators/**',
        '**/container',
        '**/container/**',
      ],
      'Layering: src/ must not import decorators, container or their libraries.',
    ),
  },
  {
    files: ['src/providers/**/*.ts'],
    rules: forbid(
      [
        ...upperLayerLibraries,
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
      ['inversify', '**/container', '**/container/**'],
      'Layering: decorators/ must not import container/ or inversify.',
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
