/**
 * Loading the user's files for `--check`, and finding the decorated DTO classes they declare.
 */
import { createRequire } from 'node:module';
import { validatedClasses } from '../schema/metadata-sources';
import { prepareTypeScript } from './typescript-loader';

/** Loads one module by absolute path. */
export type ModuleLoader = (file: string) => unknown;

const TYPESCRIPT = /\.[cm]?tsx?$/;

/**
 * The default loader: Node's `require`, with a TypeScript hook for `.ts` files (see
 * {@link prepareTypeScript}: @swc-node/register with the project's tsconfig, or the TypeScript
 * loader already active). `cwd` is where the project is looked for; default `process.cwd()`.
 */
export function defaultLoader(cwd: string = process.cwd()): ModuleLoader {
  const load = createRequire(__filename);
  return (file) => {
    if (TYPESCRIPT.test(file)) prepareTypeScript(file, cwd);
    return load(file) as unknown;
  };
}

/**
 * Loads `files` and returns the classes with class-validator metadata they define: the classes
 * they export, and the classes that gained validation records while they loaded.
 */
export async function loadDecoratedClasses(
  files: readonly string[],
  loader: ModuleLoader,
): Promise<Map<string, object>> {
  const before = validatedClasses();
  const found = new Map<string, object>();
  for (const file of files) {
    const loaded: unknown = await loader(file);
    if (typeof loaded !== 'object' || loaded === null) continue;
    const validated = validatedClasses();
    for (const value of Object.values(loaded as Record<string, unknown>)) {
      if (typeof value === 'function' && validated.has(value)) add(found, value);
    }
  }
  for (const cls of validatedClasses()) if (!before.has(cls)) add(found, cls);
  return found;
}

function add(found: Map<string, object>, cls: object): void {
  const name = (cls as { name?: unknown }).name;
  if (typeof name === 'string' && name !== '' && !found.has(name)) found.set(name, cls);
}
