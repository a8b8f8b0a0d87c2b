/**
 * Build-time schemas from TypeScript types, with typescript-json-schema (an optional peer
 * dependency, loaded only when the command runs): descriptions from JSDoc, unions, interfaces.
 */
import { createRequire } from 'node:module';
import type { JsonSchema } from '../../src/core/index';
import { GolemError, brandGuard } from '../../src/core/kit/error-base';

/** The part of typescript-json-schema's API the command uses. */
interface Generator {
  getSchemaForSymbol(name: string, includeReffedDefinitions?: boolean): unknown;
  getMainFileSymbols(program: unknown, onlyIncludeFiles?: string[]): string[];
}
interface TypeScriptJsonSchema {
  getProgramFromFiles(files: string[], compilerOptions?: object, basePath?: string): unknown;
  buildGenerator(program: unknown, args?: object, onlyIncludeFiles?: string[]): Generator | null;
}

/** typescript-json-schema is not installed (or failed to load); the message says what to install. */
export class MissingGeneratorError extends GolemError {
  constructor(options?: { cause?: unknown }) {
    super(
      'MissingGeneratorError',
      'typescript-json-schema is not installed (an optional peer dependency this command needs): ' +
        'npm install --save-dev typescript-json-schema@^0.68',
      options,
    );
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<MissingGeneratorError>('MissingGeneratorError');
}

/**
 * Compiler options for the program: fast (no DOM lib, no `@types` packages; P24), strict (so
 * `T | null` is kept), decorators allowed.
 */
export const PROGRAM_OPTIONS = Object.freeze({
  target: 'es2022',
  module: 'node16',
  moduleResolution: 'node16',
  lib: ['es2022'],
  types: [],
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  skipLibCheck: true,
});

/** Generator settings: required-ness from `?`, `additionalProperties: false`, named types referenced. */
export const GENERATOR_ARGS = Object.freeze({
  required: true,
  noExtraProps: true,
  strictNullChecks: true,
  ref: true,
  topRef: false,
  titles: false,
  excludePrivate: true,
  ignoreErrors: true,
});

/** Loads typescript-json-schema, or throws {@link MissingGeneratorError} saying how to install it. */
export function loadGenerator(
  load: (id: string) => unknown = createRequire(__filename),
): TypeScriptJsonSchema {
  try {
    return load('typescript-json-schema') as TypeScriptJsonSchema;
  } catch (cause) {
    throw new MissingGeneratorError({ cause });
  }
}

/** The types declared in a set of files, and their schemas. */
export interface TypeSchemas {
  /** Every type name declared in the files, in declaration order. */
  readonly names: readonly string[];
  /** The canonical schema of a declared type (`$defs`, no `$schema`). */
  schemaOf(name: string): JsonSchema;
}

/** The part of a TypeScript program the narrowing below reads. */
interface ProgramFiles {
  getSourceFiles(): readonly { readonly fileName: string; readonly isDeclarationFile: boolean }[];
}

/**
 * The program as the generator's index sees it: only the project's own source files, not the
 * declaration files of the standard library and of packages (golem's, class-validator's,
 * inversify's: hundreds of files). The generator asks the checker for the type of every class,
 * interface and alias in every file it is shown, which made that index most of the command's
 * time; the types it is asked for still resolve through the whole program.
 */
export function ownFilesOnly<P extends object>(program: P): P {
  const files = (program as unknown as ProgramFiles)
    .getSourceFiles()
    .filter((file) => !file.isDeclarationFile && !file.fileName.includes('/node_modules/'));
  return new Proxy(program, {
    get(target, key) {
      if (key === 'getSourceFiles') return () => files;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

/** Builds one program over `files` and a generator over it (1.5–2 s of CPU; once per command). */
export function typeSchemas(
  generator: TypeScriptJsonSchema,
  files: readonly string[],
  basePath: string,
): TypeSchemas {
  const list = [...files];
  const program = generator.getProgramFromFiles(list, PROGRAM_OPTIONS, basePath);
  const built = generator.buildGenerator(ownFilesOnly(program as object), GENERATOR_ARGS, list);
  if (built === null) throw new Error('typescript-json-schema could not build a generator');
  const names = built.getMainFileSymbols(program, list);
  return {
    names,
    schemaOf: (name) => canonicalTypeSchema(built.getSchemaForSymbol(name, true)),
  };
}

/** typescript-json-schema's draft-07 output in Golem's form: `$defs`, `#/$defs/…`, no `$schema`. */
export function canonicalTypeSchema(schema: unknown): JsonSchema {
  const text = JSON.stringify(schema).replaceAll('"#/definitions/', '"#/$defs/');
  const out = JSON.parse(text) as Record<string, unknown>;
  delete out.$schema;
  if ('definitions' in out) {
    const defs = out.definitions;
    delete out.definitions;
    out.$defs = defs;
  }
  return out as JsonSchema;
}
