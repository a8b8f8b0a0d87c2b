/**
 * Loading the user's files for `--check`, and finding the decorated DTO classes they declare.
 */
import { createRequire } from 'node:module';
import { validatedClasses } from '../schema/metadata-sources';

/** Loads one module by absolute path. */
export type ModuleLoader = (file: string) => unknown;

const TS_COMPILER_OPTIONS = {
  module: 'commonjs',
  target: 'es2022',
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
};

/**
 * The default loader: Node's `require`, with ts-node registered in transpile-only mode (it comes
 * with typescript-json-schema) when no TypeScript loader is active yet. Run the command under
 * another loader (`node -r @swc-node/register …`) to use that one instead; it must keep
 * decorator metadata.
 */
export function defaultLoader(): ModuleLoader {
  const load = createRequire(__filename);
  const extensions = (load as unknown as { extensions: Record<string, unknown> }).extensions;
  if (typeof extensions['.ts'] !== 'function') {
    let tsNode: { register(options: object): unknown };
    try {
      tsNode = load('ts-node') as typeof tsNode;
    } catch (cause) {
      throw new Error(
        '--check loads your .ts files and needs a TypeScript loader: install ts-node, or run ' +
          'with one, e.g. node -r @swc-node/register node_modules/.bin/golem schemas --check …',
        { cause },
      );
    }
    tsNode.register({ transpileOnly: true, compilerOptions: TS_COMPILER_OPTIONS });
  }
  return (file) => load(file) as unknown;
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
