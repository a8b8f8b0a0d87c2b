/**
 * `scripts/check/public-surface.mjs` (run by `npm run lint`) keeps ADR 0005's budgets: it passes
 * on this repository, and refuses a wildcard entry, an `export *`, a root over 160 names and more
 * than 25 exported error classes — checked on small projects written to a temporary folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'check', 'public-surface.mjs');

interface Outcome {
  code: number;
  output: string;
}

function check(project?: string): Outcome {
  try {
    const output = execFileSync(
      process.execPath,
      project === undefined ? [SCRIPT] : [SCRIPT, project],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    return { code: 0, output };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { code: failed.status, output: `${failed.stderr}${failed.stdout}` };
  }
}

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'golem-surface-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** A project with `golem` at `core.ts` and the given extra exports and files. */
function project(files: Record<string, string>, exports: Record<string, string> = {}): string {
  const paths: Record<string, string[]> = { golem: ['./core.ts'] };
  for (const [key, file] of Object.entries(exports))
    if (!key.includes('*')) paths[`golem/${key.slice(2)}`] = [file];
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'golem', exports: { '.': './core.js', ...exports } }),
  );
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, target: 'ES2022', module: 'commonjs', paths },
    }),
  );
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
  return folder;
}

const names = (n: number, prefix: string): string =>
  Array.from({ length: n }, (_, i) => `export const ${prefix}${i} = ${i};`).join('\n');
const errors = (n: number): string =>
  Array.from({ length: n }, (_, i) => `export class E${i} extends Base {}`).join('\n');

test('this repository keeps its budgets', () => {
  const outcome = check();
  expect(outcome.code).toBe(0);
  expect(outcome.output).toMatch(/golem \d+\/160 names; \d+\/25 error classes/);
});

test('a project within the budgets passes, counting a class and a type once each', () => {
  const outcome = check(
    project({
      'core.ts': `${names(148, 'v')}\nexport type T = string;\nexport class Base extends Error {}`,
    }),
  );
  expect(outcome.code).toBe(0);
  expect(outcome.output).toContain('golem 150/160 names; 1/25 error classes');
});

test('a root over 160 names is refused', () => {
  const outcome = check(project({ 'core.ts': names(161, 'v') }));
  expect(outcome.code).toBe(1);
  expect(outcome.output).toContain('golem exports 161 names, over the budget of 160');
});

test('`export *` in an entry file is refused', () => {
  const outcome = check(
    project({ 'core.ts': "export * from './more';", 'more.ts': 'export const a = 1;' }),
  );
  expect(outcome.code).toBe(1);
  expect(outcome.output).toContain('core.ts: `export *`');
});

test('a wildcard entry point is refused', () => {
  const outcome = check(
    project({ 'core.ts': 'export const a = 1;' }, { './providers/*': './providers/*.js' }),
  );
  expect(outcome.code).toBe(1);
  expect(outcome.output).toContain('package.json exports "./providers/*": a wildcard');
});

test('more than 25 error classes across the entries are refused, each class counted once', () => {
  const outcome = check(
    project(
      {
        'core.ts': `export class Base extends Error {}\n${errors(13)}`,
        'ui.ts':
          "export { E0, E1 } from './core';\nimport { Base } from './core';\n" +
          errors(13).replace(/E(\d+)/g, 'U$1'),
      },
      { './ui': './ui.ts' },
    ),
  );
  expect(outcome.code).toBe(1);
  expect(outcome.output).toContain('export 27 error classes, over the budget of 25');
});
