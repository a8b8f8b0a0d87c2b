/**
 * `golem schemas`, called as a function over a temporary folder of .ts files. One
 * typescript-json-schema program per invocation (a second or two of CPU): emit and check in one,
 * and a few more for types across files and packages and for the errors that need a program.
 */
import {
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schemasCommand } from '../../decorators/cli/schemas';
import { ownFilesOnly } from '../../decorators/cli/type-schemas';

const files: Record<string, string> = {
  'agree.ts': `
import { IsInt, IsOptional, IsString } from 'class-validator';
import { Nullable } from 'golem/decorators';

/** A forecast for one city. */
export class Forecast {
  /** City name */
  @IsString() city!: string;
  @IsOptional() @IsInt() days?: number;
  @Nullable() @IsString() note!: string | null;
  @IsInt() celsius = 0;
}
`,
  'disagree.ts': `
import { IsInt, IsOptional, IsString } from 'class-validator';

export class Report {
  @IsString() celsius!: number;
  @IsOptional() @IsString() city!: string;
  @IsString() note?: string;
  extra!: string;
  @IsInt() count!: number;
}
`,
  'types.ts': `
/** A shape the model can draw. */
export interface Shape {
  kind: 'circle' | 'square';
  /** Size in centimetres */
  size: number;
}

export type Station = string | number;
`,
  'uses.ts': `
import type { ValidationError } from 'class-validator';
import type { Shape } from './types';

/** Types from another file of the project and from a package still resolve. */
export interface Drawing {
  shape: Shape;
  problem?: Pick<ValidationError, 'property'>;
}
`,
};

let dir: string;
let code: number;
const stdout: string[] = [];
const stderr: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'golem-schemas-'));
  symlinkSync(join(__dirname, '..', '..', 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  code = await schemasCommand(
    ['agree.ts', 'disagree.ts', 'types.ts', '--out', 'schemas', '--check'],
    {
      cwd: dir,
      stdout: (line) => stdout.push(line),
      stderr: (line) => stderr.push(line),
      load: (file) => import(file),
    },
  );
}, 30_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function written(name: string): unknown {
  return JSON.parse(readFileSync(join(dir, 'schemas', `${name}.schema.json`), 'utf8'));
}

describe('golem schemas', () => {
  test('writes one schema file per type declared in the files', () => {
    expect(readdirSync(join(dir, 'schemas')).sort()).toEqual([
      'Forecast.schema.json',
      'Report.schema.json',
      'Shape.schema.json',
      'Station.schema.json',
    ]);
    expect(stdout.filter((line) => line.startsWith('wrote '))).toHaveLength(4);
  });

  test('emits JSDoc descriptions, unions and closed objects for types metadata cannot express', () => {
    expect(written('Shape')).toEqual({
      description: 'A shape the model can draw.',
      type: 'object',
      properties: {
        kind: { enum: ['circle', 'square'], type: 'string' },
        size: { description: 'Size in centimetres', type: 'number' },
      },
      additionalProperties: false,
      required: ['kind', 'size'],
    });
    expect(written('Station')).toEqual({ type: ['string', 'number'] });
  });

  test('--check passes a DTO whose decorators agree with its type', () => {
    expect(stdout).toContain('ok   Forecast');
  });

  test('--check reports every disagreement of names, required-ness and primitive types', () => {
    const start = stdout.indexOf('FAIL Report');
    expect(stdout.slice(start, -1)).toEqual([
      'FAIL Report',
      '     celsius: the decorators say string, TypeScript says number',
      '     city: required in TypeScript, optional by the decorators (remove @IsOptional() or add "?")',
      '     note: optional in TypeScript, required by the decorators (add @IsOptional())',
      '     extra: declared in TypeScript but has no validator (add one, e.g. @IsString(), or @Allow())',
    ]);
  });

  test('--check exits 1 with a summary when a DTO disagrees', () => {
    expect(stdout.at(-1)).toBe('2 DTO class(es) checked, 1 disagree with their TypeScript types');
    expect(code).toBe(1);
    expect(stderr).toEqual([]);
  });
});

/** One more invocation in the same folder; returns its exit code and output. */
async function again(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const exit = await schemasCommand(argv, {
    cwd: dir,
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    load: (file) => import(file),
  });
  return { exit, out, err };
}

describe('golem schemas over the project files only', () => {
  test('a type referring to another file of the project and to a package resolves both', async () => {
    const { exit, out, err } = await again(['uses.ts', '--type', 'Drawing']);
    expect(err).toEqual([]);
    expect(exit).toBe(0);
    expect(JSON.parse(out.join('\n'))).toEqual({
      description: 'Types from another file of the project and from a package still resolve.',
      type: 'object',
      properties: {
        shape: { $ref: '#/$defs/Shape' },
        problem: { $ref: '#/$defs/Pick%3CValidationError%2C%22property%22%3E' },
      },
      additionalProperties: false,
      required: ['shape'],
      $defs: {
        Shape: {
          description: 'A shape the model can draw.',
          type: 'object',
          properties: {
            kind: { enum: ['circle', 'square'], type: 'string' },
            size: { description: 'Size in centimetres', type: 'number' },
          },
          additionalProperties: false,
          required: ['kind', 'size'],
        },
        'Pick<ValidationError,"property">': {
          type: 'object',
          properties: { property: { description: expect.any(String) as unknown, type: 'string' } },
          additionalProperties: false,
          required: ['property'],
        },
      },
    });
  }, 30_000);

  test('an unknown --type exits 2 listing the types it can take', async () => {
    const { exit, err } = await again(['types.ts', '--type', 'Nope']);
    expect(exit).toBe(2);
    expect(err).toEqual([
      'golem schemas: no type named Nope in the files; --type takes one of: Shape, Station',
    ]);
  }, 30_000);

  test('--check without decorated DTO classes exits 1 saying which files to pass', async () => {
    const { exit, err } = await again(['types.ts', '--check']);
    expect(exit).toBe(1);
    expect(err).toEqual([
      'golem schemas --check: no decorated DTO classes found in the files; pass the files that declare classes with class-validator decorators (e.g. @IsString())',
    ]);
  }, 30_000);

  test("the generator's index sees the project's sources, not declaration files", () => {
    const files = [
      { fileName: '/p/src/a.ts', isDeclarationFile: false },
      { fileName: '/p/src/b.d.ts', isDeclarationFile: true },
      { fileName: '/p/node_modules/x/index.ts', isDeclarationFile: false },
      { fileName: '/p/node_modules/typescript/lib/lib.es5.d.ts', isDeclarationFile: true },
    ];
    const program = {
      checker: 'the checker',
      getSourceFiles: () => files,
      getTypeChecker(this: { checker: string }) {
        return this.checker;
      },
    };
    const narrowed = ownFilesOnly(program);
    expect(narrowed.getSourceFiles().map((file) => file.fileName)).toEqual(['/p/src/a.ts']);
    // Everything else is the program's own, bound to it.
    const { getTypeChecker } = narrowed;
    expect(getTypeChecker.call(undefined as never)).toBe('the checker');
    expect(program.getSourceFiles()).toHaveLength(4);
  });
});
