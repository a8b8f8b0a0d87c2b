/**
 * Loading the user's `.ts` files for `golem run` and `golem schemas --check`: a require hook from
 * @swc-node/register (an optional peer dependency) configured by the user's own tsconfig, kept
 * decorator metadata included. The module format is always CommonJS, whatever `module` and
 * `moduleResolution` say, so no combination of them can fail to load (ts-node's TS5110 cannot
 * arise: it is never used).
 */
import Module, { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { GolemError, brandGuard } from '../../src/core/kit/error-base';

/** The peer dependency that compiles the user's `.ts` files. */
export const TYPESCRIPT_LOADER = '@swc-node/register';

/** Set by `bin/golem.js` when the command runs from a checkout's sources (see bin/from-source.js). */
const SOURCE_ROOT = Symbol.for('golem.cli.sourceRoot');

/** The TypeScript compiler options of @swc-node/register, as far as this module touches them. */
interface LoaderOptions {
  experimentalDecorators?: boolean;
  emitDecoratorMetadata?: boolean;
  useDefineForClassFields?: boolean;
}

interface SwcRegister {
  register(options: LoaderOptions, hook?: { matcher?: (file: string) => boolean }): unknown;
}

interface SwcTsconfig {
  readDefaultTsConfig(path: string): LoaderOptions;
}

/**
 * A `.ts` file cannot be loaded: @swc-node/register is not installed where the file or the
 * working directory can reach it. The message says what to install.
 */
export class TypeScriptLoaderError extends GolemError {
  /** The file that was to be loaded. */
  readonly file: string;

  constructor(file: string, cause: unknown) {
    super(
      'TypeScriptLoaderError',
      `loading ${file} needs ${TYPESCRIPT_LOADER} (an optional peer dependency of golem that compiles TypeScript and keeps decorator metadata); install it in your project: npm install -D ${TYPESCRIPT_LOADER} @swc/core — or compile the file first and pass the .js file`,
      { cause },
    );
    this.file = file;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<TypeScriptLoaderError>('TypeScriptLoaderError');
}

let registered = false;

/**
 * Makes `require(file)` work for the TypeScript file `file`, once per process. When the command
 * runs from a checkout, that checkout's files are already handled; when another TypeScript loader
 * is active (`node -r ts-node/register …`), it is used. Otherwise @swc-node/register is resolved
 * from the file's folder, then `cwd`, then golem's own, and registered with the nearest
 * tsconfig.json above the file (else `cwd`'s): `experimentalDecorators` and
 * `emitDecoratorMetadata` default to true and `useDefineForClassFields` to false when the tsconfig
 * leaves them unset, as decorated agents need. Relative imports written `./x.js` (node16/nodenext
 * style) load `./x.ts` when no `x.js` exists. Throws {@link TypeScriptLoaderError} when
 * @swc-node/register cannot be found.
 */
export function prepareTypeScript(file: string, cwd: string): void {
  const sourceRoot = (globalThis as Record<symbol, unknown>)[SOURCE_ROOT];
  const own = typeof sourceRoot === 'string' ? sourceRoot : undefined;
  if (own !== undefined && inside(own, file)) return;
  if (registered) return;
  const extensions = (Module as unknown as { _extensions: Record<string, unknown> })._extensions;
  if (own === undefined && typeof extensions['.ts'] === 'function') {
    resolveTypeScriptTwins();
    registered = true;
    return;
  }
  const swc = findLoader(file, cwd);
  const read = swc.tsconfig.readDefaultTsConfig(
    nearestTsconfig(dirname(file)) ?? join(cwd, 'tsconfig.json'),
  );
  const options: LoaderOptions = {
    ...read,
    experimentalDecorators: read.experimentalDecorators ?? true,
    emitDecoratorMetadata: read.emitDecoratorMetadata ?? true,
    useDefineForClassFields: read.useDefineForClassFields ?? false,
  };
  if (own === undefined) swc.register.register(options);
  else swc.register.register(options, { matcher: (path) => !inside(own, path) });
  resolveTypeScriptTwins();
  registered = true;
}

function findLoader(file: string, cwd: string): { register: SwcRegister; tsconfig: SwcTsconfig } {
  let cause: unknown;
  for (const from of [join(dirname(file), 'index.js'), join(cwd, 'index.js'), __filename]) {
    const load = createRequire(from);
    try {
      return {
        register: load(`${TYPESCRIPT_LOADER}/register`) as SwcRegister,
        tsconfig: load(`${TYPESCRIPT_LOADER}/read-default-tsconfig`) as SwcTsconfig,
      };
    } catch (error) {
      cause ??= error;
    }
  }
  throw new TypeScriptLoaderError(file, cause);
}

/** The nearest tsconfig.json in `dir` or above it. */
function nearestTsconfig(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(at) === at) return undefined;
  }
}

/** Whether `file` lies inside `dir`, outside its node_modules. */
function inside(dir: string, file: string): boolean {
  const path = relative(dir, file);
  return (
    path !== '' &&
    !path.startsWith('..') &&
    !isAbsolute(path) &&
    !path.split(sep).includes('node_modules')
  );
}

type Resolve = (this: unknown, request: unknown, parent: unknown, ...rest: unknown[]) => string;

let twinsResolved = false;

/**
 * From a TypeScript file, a relative `./x.js` (`.mjs`, `.cjs`) that does not resolve is retried
 * as `./x.ts` (`.mts`, `.cts`): node16/nodenext sources name the compiled file.
 */
function resolveTypeScriptTwins(): void {
  if (twinsResolved) return;
  twinsResolved = true;
  const api = Module as unknown as { _resolveFilename: Resolve };
  const resolve = api._resolveFilename;
  api._resolveFilename = function resolveTwin(request, parent, ...rest) {
    try {
      return resolve.call(this, request, parent, ...rest);
    } catch (error) {
      const twin = typeScriptTwin(request, parent);
      if (twin === undefined) throw error;
      try {
        return resolve.call(this, twin, parent, ...rest);
      } catch {
        throw error;
      }
    }
  };
}

function typeScriptTwin(request: unknown, parent: unknown): string | undefined {
  if (typeof request !== 'string' || !/^\.\.?\//.test(request)) return undefined;
  const from =
    typeof parent === 'object' && parent !== null
      ? (parent as { filename?: unknown }).filename
      : undefined;
  if (typeof from !== 'string' || !/\.[cm]?tsx?$/.test(from)) return undefined;
  const match = /\.([cm]?)js$/.exec(request);
  return match === null ? undefined : `${request.slice(0, match.index)}.${match[1] ?? ''}ts`;
}
