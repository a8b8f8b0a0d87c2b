/**
 * examples/chat-ui depends on golem as `file:../..`, and npm copies the linked package's
 * package.json fields (dependencies, devDependencies, peers, bin, engines…) into the example's
 * lockfile, under `packages["../.."]`. When golem's package.json changes and the lockfile is not
 * regenerated, `npm install` in the example rewrites the lockfile: this keeps the two in step.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(root, path), 'utf8')) as Record<string, unknown>;

/** The fields of a linked package that npm (lockfile version 3) records in the lockfile. */
const RECORDED = [
  'name',
  'version',
  'license',
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'engines',
  'os',
  'cpu',
];

const FIX = 'run `npm install --package-lock-only --no-audit --no-fund --prefix examples/chat-ui`';

test("the chat-ui lockfile records golem's package.json as it is", () => {
  const golem = readJson('package.json');
  const lock = readJson('examples/chat-ui/package-lock.json');
  const packages = lock.packages as Record<string, Record<string, unknown>>;
  const example = readJson('examples/chat-ui/package.json');
  expect((example.dependencies as Record<string, string>).golem).toBe('file:../..');
  expect(packages['node_modules/golem']).toEqual({ resolved: '../..', link: true });
  const expected = Object.fromEntries(
    RECORDED.filter((field) => golem[field] !== undefined).map((field) => [field, golem[field]]),
  );
  expect({ recorded: packages['../..'], fix: FIX }).toEqual({ recorded: expected, fix: FIX });
});

test("the chat-ui lockfile's root entry is the example's package.json", () => {
  const example = readJson('examples/chat-ui/package.json');
  const recorded = (
    readJson('examples/chat-ui/package-lock.json').packages as Record<
      string,
      Record<string, unknown>
    >
  )[''];
  expect({
    name: recorded?.name,
    dependencies: recorded?.dependencies,
    devDependencies: recorded?.devDependencies,
    fix: FIX,
  }).toEqual({
    name: example.name,
    dependencies: example.dependencies,
    devDependencies: example.devDependencies,
    fix: FIX,
  });
});
