/**
 * `golem run` and `golem schemas --check` on `.ts` files, spawned as users run them: from golem
 * installed in a consumer project (compiled, no sources) under several tsconfigs, without the
 * TypeScript loader installed, and from this checkout without a build — outside the repository
 * and inside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REPO,
  golem,
  installGolem,
  linkDependencies,
  writeFiles,
} from '../support/consumer-project';

jest.setTimeout(120_000);

/** A decorated agent: DTO arguments and constructor injection need decorator metadata. */
const agentSource = (serviceImport: string): string => `
import { IsIn, IsInt, IsString } from 'class-validator';
import { Agent, Output, Tool } from 'golem/decorators';
import { Thermometer } from '${serviceImport}';

export class CityArgs {
  @IsIn(['Lagos', 'Oslo']) city!: string;
}

export class Reading {
  @IsString() city!: string;
  @IsInt() celsius!: number;
}

@Agent({ model: 'default' })
@Output(Reading)
export class ThermoAgent {
  constructor(private readonly thermometer: Thermometer) {}

  @Tool({ description: 'Temperature of a city, in °C' })
  temperature(args: CityArgs): Reading {
    return { city: args.city, celsius: this.thermometer.read(args.city) };
  }
}
`;

const serviceSource = `
import { injectable } from 'inversify';

@injectable()
export class Thermometer {
  read(city: string): number {
    return city === 'Lagos' ? 31 : 4;
  }
}
`;

const dtoSource = `
import { IsInt, IsOptional, IsString } from 'class-validator';

export class Report {
  @IsString() city!: string;
  @IsInt() celsius!: number;
  @IsOptional() @IsString() note?: string;
  @IsString() missing?: string;
}
`;

const tsconfig = (options: Record<string, unknown>): string =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      strict: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: false,
      esModuleInterop: true,
      ...options,
    },
  });

const RUN = ['run', 'src/agent.ts', 'ThermoAgent', 'Weather in Lagos?', '--model', 'test'];

/** What every successful run of {@link RUN} prints, the usage line aside. */
const EXPECTED = [
  'agent: ThermoAgent',
  'model: test (binding "default", --model test)',
  'output: {"city":"Lagos","celsius":31}',
  'messages:',
  '  user: Weather in Lagos?',
  '  assistant calls temperature({"city":"Lagos"}) [test-call-1]',
  '  tool temperature [test-call-1]: {"city":"Lagos","celsius":31}',
  '  assistant: {"city":"Lagos","celsius":31}',
];

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('usage: '));
}

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'golem-cli-ts-'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A consumer project with golem installed; `without` leaves dependencies out. */
function installedProject(
  name: string,
  config: Record<string, unknown>,
  files: Record<string, string>,
  without: readonly string[] = [],
): { dir: string; bin: string } {
  const dir = join(root, name);
  linkDependencies(dir, without);
  installGolem(join(dir, 'node_modules', 'golem'));
  writeFiles(dir, { 'tsconfig.json': tsconfig(config), ...files });
  return { dir, bin: join(dir, 'node_modules', 'golem', 'bin', 'golem.js') };
}

describe('golem installed in a consumer project', () => {
  test('runs a .ts agent under module: commonjs (node10 resolution), metadata kept', () => {
    const { dir, bin } = installedProject(
      'commonjs',
      { module: 'commonjs', moduleResolution: 'node' },
      {
        'package.json': '{"name":"consumer","private":true}',
        'src/agent.ts': agentSource('./thermometer'),
        'src/thermometer.ts': serviceSource,
        'src/report.ts': dtoSource,
      },
    );
    const result = golem(bin, dir, RUN);
    expect(result.stderr).toBe('');
    expect(lines(result.stdout)).toEqual(EXPECTED);
    expect(result.status).toBe(0);

    const check = golem(bin, dir, ['schemas', 'src/report.ts', '--check']);
    expect(check.stdout.split('\n')).toEqual([
      'FAIL Report',
      '     missing: optional in TypeScript, required by the decorators (add @IsOptional())',
      '1 DTO class(es) checked, 1 disagree with their TypeScript types',
      '',
    ]);
    expect(check.status).toBe(1);
  });

  test('runs a .ts agent under module: nodenext, whose imports name ./x.js for x.ts', () => {
    const { dir, bin } = installedProject(
      'nodenext',
      { module: 'nodenext', moduleResolution: 'nodenext' },
      {
        'package.json': '{"name":"consumer","private":true,"type":"commonjs"}',
        'src/agent.ts': agentSource('./thermometer.js'),
        'src/thermometer.ts': serviceSource,
      },
    );
    const result = golem(bin, dir, RUN);
    expect(result.stderr).toBe('');
    expect(lines(result.stdout)).toEqual(EXPECTED);
  });

  test('runs a .ts agent of an ESM package ("type": "module", module: nodenext)', () => {
    const { dir, bin } = installedProject(
      'esm',
      { module: 'nodenext', moduleResolution: 'nodenext' },
      {
        'package.json': '{"name":"consumer","private":true,"type":"module"}',
        'src/agent.ts': agentSource('./thermometer.js'),
        'src/thermometer.ts': serviceSource,
      },
    );
    const result = golem(bin, dir, RUN);
    expect(result.stderr).toBe('');
    expect(lines(result.stdout)).toEqual(EXPECTED);
  });

  test('without @swc-node/register a .ts module exits 2 saying what to install', () => {
    const { dir, bin } = installedProject(
      'no-loader',
      { module: 'commonjs' },
      {
        'package.json': '{"name":"consumer","private":true}',
        'src/agent.ts': agentSource('./thermometer'),
        'src/thermometer.ts': serviceSource,
      },
      ['@swc-node', 'ts-node'],
    );
    const result = golem(bin, dir, RUN);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `golem run: loading ${join(dir, 'src', 'agent.ts')} needs @swc-node/register`,
    );
    expect(result.stderr).toContain('npm install -D @swc-node/register @swc/core');
    expect(result.stderr).not.toContain('TS5110');
  });
});

describe('golem from this checkout, without a build', () => {
  test('runs a .ts agent of a consumer-like folder; its golem imports are the sources', () => {
    const dir = join(root, 'checkout-consumer');
    linkDependencies(dir);
    writeFiles(dir, {
      'tsconfig.json': tsconfig({ module: 'commonjs' }),
      'src/agent.ts': agentSource('./thermometer'),
      'src/thermometer.ts': serviceSource,
    });
    const result = golem(join(REPO, 'bin', 'golem.js'), dir, RUN);
    expect(result.stderr).toBe('');
    expect(lines(result.stdout)).toEqual(EXPECTED);
  });

  test('runs the main-job example inside the repository', () => {
    const result = golem(join(REPO, 'bin', 'golem.js'), REPO, [
      'run',
      'examples/main-job/weather.agent.ts',
      'WeatherAgent',
      'What is the weather in Lagos tomorrow?',
      '--model',
      'test',
      '--deps',
      '{"name":"Ada"}',
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      'output: {"city":"Lagos","celsius":31,"summary":"Sunny and humid: take water."}',
    );
  });

  test('checks the main-job DTOs against their types inside the repository', () => {
    const result = golem(join(REPO, 'bin', 'golem.js'), REPO, [
      'schemas',
      'examples/main-job/weather.agent.ts',
      '--check',
    ]);
    expect(result.stdout).toContain('2 DTO class(es) checked, 0 disagree');
    expect(result.status).toBe(0);
  });
});
