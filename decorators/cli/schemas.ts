/**
 * `golem schemas <files…> [--type Name]… [--out dir] [--check]`: JSON Schemas from TypeScript
 * types at build time (typescript-json-schema), and a check that decorated DTOs agree with their
 * types. The bin (`bin/golem.js`) calls {@link main}; tests call {@link schemasCommand}.
 */
import '../peers';
import 'reflect-metadata';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JsonSchema } from '../../src/core/index';
import { ConfigError, describeError } from '../../src/core/index';
import { dtoSchema } from '../schema/dto-schema';
import { parseSchemasArgs, SCHEMAS_USAGE, UsageError, type SchemasArgs } from './args';
import { compareSchemas } from './compare';
import { defaultLoader, loadDecoratedClasses, type ModuleLoader } from './load-modules';
import {
  loadGenerator,
  MissingGeneratorError,
  typeSchemas,
  type TypeSchemas,
} from './type-schemas';

/** Where the command writes and what it loads with; every field has a default. */
export interface SchemasIO {
  /** Receives each line of normal output; default `process.stdout`. */
  stdout?: (line: string) => void;
  /** Receives each line of error output; default `process.stderr`. */
  stderr?: (line: string) => void;
  /** Resolves relative paths; default `process.cwd()`. */
  cwd?: string;
  /** Loads a user module for `--check`; default `require` with a TypeScript hook for `.ts` files. */
  load?: ModuleLoader;
  /** Loads typescript-json-schema; default `require`. */
  loadGenerator?: (id: string) => unknown;
}

/** Exit codes: 0 success, 1 check failures (or nothing to check), 2 usage or setup errors. */
export const EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2 });

/** Runs the command with `argv` (the arguments after `schemas`) and returns the exit code. */
export async function schemasCommand(argv: readonly string[], io: SchemasIO = {}): Promise<number> {
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cwd = io.cwd ?? process.cwd();
  let args: SchemasArgs;
  try {
    args = parseSchemasArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`golem schemas: ${error.message}`);
    err(SCHEMAS_USAGE);
    return EXIT.usage;
  }
  if (args.help) {
    out(SCHEMAS_USAGE);
    return EXIT.ok;
  }
  const files = args.files.map((file) => resolve(cwd, file));
  const missing = files.filter((file) => !existsSync(file));
  if (missing.length > 0) {
    err(
      `golem schemas: no such file: ${missing.join(', ')}; give the paths of the .ts files that declare the types`,
    );
    return EXIT.usage;
  }
  let types: TypeSchemas;
  try {
    types = typeSchemas(loadGenerator(io.loadGenerator), files, cwd);
  } catch (error) {
    err(`golem schemas: ${describeError(error)}`);
    return MissingGeneratorError.is(error) ? EXIT.usage : EXIT.failed;
  }
  const unknown = args.types.filter((name) => !types.names.includes(name));
  if (unknown.length > 0) {
    err(
      `golem schemas: no type named ${unknown.join(', ')} in the files; --type takes one of: ${types.names.join(', ')}`,
    );
    return EXIT.usage;
  }
  const selected = args.types.length > 0 ? args.types : types.names;
  if (!args.check || args.out !== undefined) emit(types, selected, args, cwd, out);
  if (!args.check) return EXIT.ok;
  return check(types, selected, files, io.load ?? defaultLoader(cwd), out, err);
}

function emit(
  types: TypeSchemas,
  names: readonly string[],
  args: SchemasArgs,
  cwd: string,
  out: (line: string) => void,
): void {
  if (args.out === undefined) {
    const only = names.length === 1 && args.types.length === 1 ? names[0] : undefined;
    const value =
      only === undefined
        ? Object.fromEntries(names.map((name) => [name, types.schemaOf(name)]))
        : types.schemaOf(only);
    out(JSON.stringify(value, null, 2));
    return;
  }
  const dir = resolve(cwd, args.out);
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    const file = join(dir, `${name}.schema.json`);
    writeFileSync(file, `${JSON.stringify(types.schemaOf(name), null, 2)}\n`);
    out(`wrote ${file}`);
  }
}

async function check(
  types: TypeSchemas,
  names: readonly string[],
  files: readonly string[],
  load: ModuleLoader,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let classes: Map<string, object>;
  try {
    classes = await loadDecoratedClasses(files, load);
  } catch (error) {
    err(`golem schemas --check: cannot load the files: ${describeError(error)}`);
    return EXIT.failed;
  }
  const checked = names.filter((name) => classes.has(name));
  if (checked.length === 0) {
    err(
      'golem schemas --check: no decorated DTO classes found in the files; pass the files that declare classes with class-validator decorators (e.g. @IsString())',
    );
    return EXIT.failed;
  }
  let failing = 0;
  for (const name of checked) {
    const problems = problemsOf(classes.get(name) as new () => object, types.schemaOf(name));
    if (problems.length === 0) {
      out(`ok   ${name}`);
      continue;
    }
    failing++;
    out(`FAIL ${name}`);
    for (const problem of problems) out(`     ${problem}`);
  }
  out(`${checked.length} DTO class(es) checked, ${failing} disagree with their TypeScript types`);
  return failing === 0 ? EXIT.ok : EXIT.failed;
}

function problemsOf(dto: new () => object, declared: JsonSchema): string[] {
  try {
    return compareSchemas(dtoSchema(dto), declared);
  } catch (error) {
    if (!ConfigError.is(error, 'decorators')) throw error;
    return [`cannot build its schema: ${error.message}`];
  }
}

/** The bin's entry point: runs `golem schemas` with `argv` and returns the exit code. */
export function main(argv: readonly string[]): Promise<number> {
  return schemasCommand(argv);
}
