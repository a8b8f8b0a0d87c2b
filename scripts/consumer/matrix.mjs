// @ts-check
/**
 * What the consumer suite (`npm run test:consumer`) installs and compiles: the TypeScript
 * versions, the tsconfig of each module kind, the peer sets (pinned), which entry point needs
 * which peers, and the combinations known not to type-check — each with the fix a user applies.
 * README.md's support table states the same limits; the suite fails when a limit stops
 * reproducing, so the table cannot go stale silently.
 */

/** TypeScript versions, oldest first: 5.0 is the oldest 5.x; 5.4 and 5.8 bracket require(esm). */
export const TYPESCRIPT = ['5.0.4', '5.4.5', '5.8.3', '5.9.3'];

/** The newest TypeScript; its output is the one run on every Node. */
export const NEWEST_TS = TYPESCRIPT[TYPESCRIPT.length - 1];

/** Options every fixture compiles with: the strict settings a careful app has, libs checked. */
export const BASE_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2022'],
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  useDefineForClassFields: false,
  esModuleInterop: true,
  skipLibCheck: false,
  types: ['node'],
  rootDir: 'src',
};

/**
 * The module kinds: compiler options and the package type of the fixture project. `commonjs`
 * is Nest's classic tsconfig (node10 resolution); `bundler` output is run by Node as ESM.
 * @type {Record<string, { options: Record<string, unknown>; type: 'commonjs' | 'module' }>}
 */
export const KINDS = {
  commonjs: { options: { module: 'commonjs' }, type: 'commonjs' },
  node16: { options: { module: 'node16' }, type: 'commonjs' },
  'nodenext-cjs': { options: { module: 'nodenext' }, type: 'commonjs' },
  'nodenext-esm': { options: { module: 'nodenext' }, type: 'module' },
  bundler: { options: { module: 'esnext', moduleResolution: 'bundler' }, type: 'module' },
};

/**
 * The quick starts, compiled and run in every kind. `readme` names the README heading whose
 * first ```ts block is the program; the others live in scripts/consumer/fixtures/. `expect` is
 * a line the run must print.
 * @type {Record<string, { readme?: string; expect?: RegExp }>}
 */
export const FIXTURES = {
  engine: { readme: '## Quick start' },
  container: { readme: '## Agents as classes, with the container' },
  decorated: { expect: /^decorated: Lagos 31 ForecastArgs Forecast$/m },
  nestjs: { expect: /^nestjs: Lagos 31 closed$/m },
};

/** The peers the matrix installs: the newest of each range (Nest 11: the last CommonJS Nest). */
export const PEERS_NEWEST = {
  'class-validator': '0.15.1',
  'class-transformer': '0.5.1',
  'class-validator-jsonschema': '5.2.0',
  'reflect-metadata': '0.2.2',
  inversify: '8.2.3',
  'html-to-text': '10.0.1',
  yaml: '2.9.1',
  '@nestjs/common': '11.1.9',
  '@nestjs/core': '11.1.9',
  rxjs: '7.8.2',
  '@types/node': '20.19.43',
};

/** The oldest version of each peer range in package.json, run against the same quick starts. */
export const PEERS_OLDEST = {
  'class-validator': '0.14.2',
  'class-transformer': '0.5.1',
  'class-validator-jsonschema': '5.0.0',
  'reflect-metadata': '0.1.13',
  inversify: '8.0.0',
  'html-to-text': '9.0.5',
  yaml: '2.0.0',
  '@nestjs/common': '10.0.0',
  '@nestjs/core': '10.0.0',
  // The range starts at 7.5.5: older rxjs has no `types` in its exports, so under node16/nodenext
  // resolution Nest's own declarations (and golem/nestjs's) cannot see its types.
  rxjs: '7.5.5',
  '@types/node': '20.19.43',
};

/**
 * @typedef {object} PeerSet
 * @property {string} name       the project folder and the label in the report
 * @property {Record<string, string>} peers  package → exact version
 * @property {string[]} [fixtures]  the quick starts compiled with it (default: all)
 * @property {string[]} [typescript] the TypeScript versions (default: all)
 */

/**
 * The matrix: each set is installed once and compiled in every module kind. `newest` runs every
 * quick start; `nest12` adds Nest 12, which is ESM-only (the `newest` set has Nest 11, the last
 * CommonJS Nest), with the Nest quick start at the TypeScript versions either side of 5.8.
 * @type {PeerSet[]}
 */
export const PEER_SETS = [
  { name: 'newest', peers: PEERS_NEWEST },
  {
    name: 'nest12',
    peers: { ...PEERS_NEWEST, '@nestjs/common': '12.5.1', '@nestjs/core': '12.5.1' },
    fixtures: ['nestjs'],
    typescript: ['5.4.5', '5.9.3'],
  },
];

/**
 * Entry points that check their peers on load, with the packages a bare install lacks. Loading
 * one in a project with golem alone must throw an error naming `npm install <these>`.
 * @type {Record<string, string[]>}
 */
export const ENTRY_PEERS = {
  'golem/decorators': [
    'reflect-metadata',
    'class-validator',
    'class-transformer',
    'class-validator-jsonschema',
  ],
  'golem/container': [
    'reflect-metadata',
    'class-validator',
    'class-transformer',
    'class-validator-jsonschema',
    'inversify',
  ],
  'golem/nestjs': ['@nestjs/common', '@nestjs/core', 'rxjs'],
  'golem/nestjs/queue': ['@nestjs/common', '@nestjs/core', 'rxjs'],
  'golem/tools/webfetch': ['html-to-text'],
  'golem/tools/skills': ['yaml'],
};

/** Install-size target of `npm install golem` alone (du of node_modules), bytes. */
export const INSTALL_TARGET_BYTES = 12 * 1024 * 1024;

/**
 * @typedef {object} Limit
 * @property {string} id           short name, used in the report
 * @property {string} [set]        the peer set it applies to (default `newest`)
 * @property {string[]} kinds      module kinds it applies to
 * @property {(ts: string) => boolean} ts  TypeScript versions it applies to
 * @property {string} fixture      the fixture whose compile fails
 * @property {string} why          what fails, in one line
 * @property {string} fix          what the user does about it
 * @property {{ kind: string; ts: string; options: Record<string, unknown> }[]} [verify]
 *   failing combinations the fix is applied to (compiler options) — they must then compile
 */

const below = (/** @type {string} */ version) => (/** @type {string} */ ts) =>
  compareVersions(ts, version) < 0;
const any = () => true;

/** @type {Limit[]} */
export const KNOWN_LIMITS = [
  {
    id: 'inversify-node10',
    kinds: ['commonjs'],
    ts: any,
    fixture: 'container',
    why: 'inversify 8 publishes its types through `exports` only, which node10 resolution ignores (TS2307)',
    fix: 'use `"module": "nodenext"` (TypeScript ≥ 5.8; output stays CommonJS) for golem/container, or golem/nestjs',
  },
  {
    id: 'inversify-node16',
    kinds: ['node16'],
    ts: any,
    fixture: 'container',
    why: 'inversify 8 is ESM-only and `module: node16` cannot require ESM (TS1479/TS1541)',
    fix: 'use `"module": "nodenext"` with TypeScript ≥ 5.8 (the output stays CommonJS)',
  },
  {
    id: 'inversify-ts-before-5.8',
    kinds: ['nodenext-cjs', 'nodenext-esm', 'bundler'],
    ts: below('5.8.0'),
    fixture: 'container',
    why: "inversify 8's typings need TypeScript ≥ 5.8 (TS1166), and before 5.8 CommonJS cannot require ESM (TS1479)",
    fix: 'TypeScript ≥ 5.8, or `"skipLibCheck": true` with `"type": "module"` or `bundler`',
    verify: [
      { kind: 'nodenext-esm', ts: '5.0.4', options: { skipLibCheck: true } },
      { kind: 'bundler', ts: '5.4.5', options: { skipLibCheck: true } },
    ],
  },
  {
    id: 'nest12-node16',
    set: 'nest12',
    kinds: ['node16'],
    ts: any,
    fixture: 'nestjs',
    why: 'Nest 12 is ESM-only and `module: node16` cannot require ESM (TS1479)',
    fix: 'use `"module": "nodenext"` with TypeScript ≥ 5.8 (the output stays CommonJS), or Nest 11',
  },
  {
    id: 'nest12-ts-before-5.8',
    set: 'nest12',
    kinds: ['nodenext-cjs', 'nodenext-esm'],
    ts: below('5.8.0'),
    fixture: 'nestjs',
    why: "before TypeScript 5.8, golem's CommonJS declarations cannot require Nest 12's ES modules (TS1479)",
    fix: 'TypeScript ≥ 5.8, or `"skipLibCheck": true` with `"type": "module"`, or Nest 11',
    verify: [{ kind: 'nodenext-esm', ts: '5.4.5', options: { skipLibCheck: true } }],
  },
];

/** Semver-ish comparison of `a.b.c` strings. */
export function compareVersions(/** @type {string} */ a, /** @type {string} */ b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** The known limit of a fixture with a peer set, in a kind, under a TypeScript version. */
export function limitFor(
  /** @type {string} */ set,
  /** @type {string} */ kind,
  /** @type {string} */ ts,
  /** @type {string} */ fixture,
) {
  return KNOWN_LIMITS.find(
    (l) =>
      (l.set ?? 'newest') === set && l.fixture === fixture && l.kinds.includes(kind) && l.ts(ts),
  );
}
