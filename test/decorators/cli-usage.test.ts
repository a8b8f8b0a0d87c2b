/**
 * `golem schemas` argument handling and setup errors (no TypeScript program is built here), and
 * the `bin/golem.js` dispatcher.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSchemasArgs, UsageError } from '../../decorators/cli/args';
import { EXIT, schemasCommand } from '../../decorators/cli/schemas';
import { canonicalTypeSchema } from '../../decorators/cli/type-schemas';
import { compareSchemas } from '../../decorators/cli/compare';
import type { JsonSchema } from 'golem';

function run(argv: string[], extra: Parameters<typeof schemasCommand>[1] = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = schemasCommand(argv, {
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
    cwd: __dirname,
    ...extra,
  });
  return code.then((exit) => ({ exit, stdout, stderr }));
}

describe('golem schemas arguments', () => {
  test('parses files, repeated --type, --out and --check in either form', () => {
    expect(
      parseSchemasArgs(['a.ts', '--type', 'A', '--type=B', '--out=dir', 'b.ts', '--check']),
    ).toEqual({
      files: ['a.ts', 'b.ts'],
      types: ['A', 'B'],
      out: 'dir',
      check: true,
      help: false,
    });
  });

  test.each([
    [[], 'no files given'],
    [['a.ts', '--type'], '--type needs a value'],
    [['a.ts', '--out', '--check'], '--out needs a value'],
    [['a.ts', '--verbose'], 'unknown option --verbose'],
    [['a.ts', '--out', 'x', '--out', 'y'], '--out is given twice'],
  ])('%j is a usage error: %s', (argv, message) => {
    expect(() => parseSchemasArgs(argv)).toThrow(new UsageError(message));
  });

  test('a usage error prints the message and the usage and exits 2', async () => {
    const { exit, stderr } = await run(['--nope']);
    expect(exit).toBe(EXIT.usage);
    expect(stderr[0]).toBe('golem schemas: unknown option --nope');
    expect(stderr[1]).toMatch(/^usage: golem schemas <files…>/);
  });

  test('--help prints the usage and exits 0', async () => {
    const { exit, stdout } = await run(['--help']);
    expect(exit).toBe(EXIT.ok);
    expect(stdout[0]).toMatch(/^usage: golem schemas/);
  });

  test('a missing file exits 2 naming it', async () => {
    const { exit, stderr } = await run(['missing.ts']);
    expect(exit).toBe(EXIT.usage);
    expect(stderr).toEqual([
      `golem schemas: no such file: ${join(__dirname, 'missing.ts')}; give the paths of the .ts files that declare the types`,
    ]);
  });

  test('without typescript-json-schema installed it says how to install it and exits 2', async () => {
    const { exit, stderr } = await run(['cli-usage.test.ts'], {
      loadGenerator: () => {
        throw new Error("Cannot find module 'typescript-json-schema'");
      },
    });
    expect(exit).toBe(EXIT.usage);
    expect(stderr).toEqual([
      'golem schemas: typescript-json-schema is not installed (an optional peer dependency this command needs): npm install --save-dev typescript-json-schema@^0.68',
    ]);
  });
});

describe('schema conversion and comparison', () => {
  test('typescript-json-schema output becomes $defs without $schema', () => {
    expect(
      canonicalTypeSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { at: { $ref: '#/definitions/Point' } },
        definitions: { Point: { type: 'object' } },
      }),
    ).toEqual({
      type: 'object',
      properties: { at: { $ref: '#/$defs/Point' } },
      $defs: { Point: { type: 'object' } },
    });
  });

  test('integer and number agree, nested references compare as objects, untyped sides are skipped', () => {
    const runtime: JsonSchema = {
      type: 'object',
      properties: {
        n: { type: 'integer' },
        at: { $ref: '#/$defs/P' },
        any: {},
        maybe: { anyOf: [{ $ref: '#/$defs/P' }, { type: 'null' }] },
      },
      required: ['n', 'at', 'any', 'maybe'],
      $defs: { P: { type: 'object' } },
    };
    const declared: JsonSchema = {
      type: 'object',
      properties: {
        n: { type: 'number' },
        at: { $ref: '#/definitions/P' },
        any: { type: 'string' },
        maybe: { anyOf: [{ $ref: '#/definitions/P' }, { type: 'null' }] },
      },
      required: ['n', 'at', 'any', 'maybe'],
      definitions: { P: { type: 'object' } },
    };
    expect(compareSchemas(runtime, declared)).toEqual([]);
  });
});

describe('bin/golem.js', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'golem-bin-'));
    mkdirSync(join(root, 'bin'));
    for (const file of ['golem.js', 'from-source.js'])
      copyFileSync(join(__dirname, '..', '..', 'bin', file), join(root, 'bin', file));
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  const golem = (...args: string[]) =>
    spawnSync(process.execPath, [join(root, 'bin', 'golem.js'), ...args], { encoding: 'utf8' });

  test('without a command it prints the commands and exits 2', () => {
    const result = golem();
    expect(result.status).toBe(2);
    expect(result.stdout).toContain('schemas  JSON Schemas from TypeScript types');
  });

  test('an unknown command exits 2', () => {
    const result = golem('nope');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('golem: unknown command "nope"');
  });

  test('explains a missing build', () => {
    const result = golem('schemas', 'a.ts');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('the compiled "schemas" command is missing');
    expect(result.stderr).toContain('npm run build');
  });

  test('dispatches to the compiled module with the remaining arguments and its exit code', () => {
    mkdirSync(join(root, 'dist', 'decorators', 'cli'), { recursive: true });
    writeFileSync(
      join(root, 'dist', 'decorators', 'cli', 'schemas.js'),
      'exports.main = async (argv) => { console.log(JSON.stringify(argv)); return 3; };\n',
    );
    const result = golem('schemas', 'a.ts', '--check');
    expect(result.stdout.trim()).toBe('["a.ts","--check"]');
    expect(result.status).toBe(3);
  });
});
