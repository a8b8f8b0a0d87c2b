/**
 * What package.json promises an installing app: a small core (one runtime dependency), every
 * heavy library an optional peer of the entry point that needs it (and a devDependency here, so
 * this suite exercises it), types for every subpath under node10 resolution, a license, and no
 * source map pointing at a file the tarball leaves out. The packed tarball itself is checked by
 * `npm run test:consumer`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTAINER_PEERS } from '../../container/peers';
import { DECORATORS_PEERS } from '../../decorators/peers';
import { SKILLS_PEERS } from '../../src/tools/skills/peers';
import { WEB_FETCH_PEERS } from '../../src/tools/webfetch/peers';

const ROOT = join(__dirname, '..', '..');

interface ExportTarget {
  types: string;
  default: string;
}

interface Manifest {
  license: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  exports: Record<string, ExportTarget | string>;
  typesVersions: Record<string, Record<string, string[]>>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

test('the core has one runtime dependency: the SSE parser its providers use', () => {
  expect(Object.keys(manifest.dependencies)).toEqual(['eventsource-parser']);
});

test.each([
  ['golem/decorators', DECORATORS_PEERS],
  ['golem/container', CONTAINER_PEERS],
  ['golem/tools/webfetch', WEB_FETCH_PEERS],
  ['golem/tools/skills', SKILLS_PEERS],
])('%s checks only optional peers, each a devDependency too', (_entry, peers) => {
  expect(peers.length).toBeGreaterThan(0);
  for (const name of peers) {
    expect([name, manifest.peerDependencies[name]]).toEqual([name, expect.any(String)]);
    expect([name, manifest.peerDependenciesMeta[name]?.optional]).toEqual([name, true]);
    expect([name, manifest.devDependencies[name]]).toEqual([name, expect.any(String)]);
  }
});

test('the peer ranges admit what apps already have', () => {
  expect(manifest.peerDependencies).toMatchObject({
    'class-validator': '^0.14.2 || ^0.15.0',
    'class-transformer': '^0.5.1',
    'reflect-metadata': '^0.1.13 || ^0.2.0',
    inversify: '^8.0.0',
  });
});

test('every optional peer is installed for the tests (a devDependency)', () => {
  const optional = Object.keys(manifest.peerDependencies).filter(
    (name) => manifest.peerDependenciesMeta[name]?.optional === true,
  );
  expect(optional.filter((name) => !(name in manifest.devDependencies))).toEqual([]);
});

/** Where typesVersions sends `subpath` (without `./`), or undefined. */
function typesVersionsTarget(
  mapped: Record<string, string[]>,
  subpath: string,
): string | undefined {
  for (const [pattern, [target]] of Object.entries(mapped)) {
    if (target === undefined) continue;
    if (pattern === subpath) return target;
    if (pattern.endsWith('*') && subpath.startsWith(pattern.slice(0, -1)))
      return target.replace('*', subpath.slice(pattern.length - 1));
  }
  return undefined;
}

test('typesVersions types every subpath the way exports does (node10 resolution)', () => {
  const mapped = manifest.typesVersions['*'] ?? {};
  const subpaths = Object.entries(manifest.exports).filter(
    (entry): entry is [string, ExportTarget] => entry[0] !== '.' && typeof entry[1] !== 'string',
  );
  for (const [subpath, target] of subpaths) {
    const key = subpath.slice(2);
    expect([key, typesVersionsTarget(mapped, key)]).toEqual([key, target.types.slice(2)]);
  }
  for (const pattern of Object.keys(mapped)) {
    const prefix = `./${pattern.replace(/\*$/, '')}`;
    expect([pattern, subpaths.some(([subpath]) => subpath.startsWith(prefix))]).toEqual([
      pattern,
      true,
    ]);
  }
});

test('exports names every entry point, and tsconfig and jest map the same ones (ADR 0005 §4)', () => {
  const keys = Object.keys(manifest.exports).filter((key) => key !== './package.json');
  expect(keys.filter((key) => key.includes('*'))).toEqual([]);
  const specifiers = keys.map((key) => (key === '.' ? 'golem' : `golem/${key.slice(2)}`));
  expect(specifiers).toHaveLength(32);
  const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  expect(Object.keys(tsconfig.compilerOptions.paths).sort()).toEqual([...specifiers].sort());
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the jest config is CommonJS
  const jestConfig = require('../../jest.config.js') as {
    moduleNameMapper: Record<string, string>;
  };
  const mapped = (id: string) =>
    Object.keys(jestConfig.moduleNameMapper).filter((pattern) => new RegExp(pattern).test(id));
  for (const id of specifiers) expect([id, mapped(id).length]).toEqual([id, 1]);
  for (const id of ['golem/providers/shared', 'golem/stores/sql'])
    expect([id, mapped(id), tsconfig.compilerOptions.paths[id]]).toEqual([id, [], undefined]);
});

test('the package ships the MIT license it declares', () => {
  expect(manifest.license).toBe('MIT');
  expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
});

test('the build emits no source or declaration maps (their TypeScript sources are not shipped)', () => {
  const build = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };
  expect(build.compilerOptions).toMatchObject({ sourceMap: false, declarationMap: false });
});
