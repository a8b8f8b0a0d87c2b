/**
 * `golem schemas`, called as a function over a temporary folder of .ts files. One
 * typescript-json-schema program for the whole file (1–3 s): emit and check in one invocation.
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
