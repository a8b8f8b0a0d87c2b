/**
 * The deps of `--deps` (`golem run`, `golem mcp serve`): the parsed JSON, or what a module file
 * exports as `deps` or as its default export — called once when it is a function.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeError } from '../../src/core/index';
import type { ModuleLoader } from './load-agent';
import { UsageError, type DepsSource } from './run-args';

/** The deps to run with: `{}` without `--deps`, else `{ deps }`. */
export type LoadedDeps = { readonly deps?: unknown };

const EXAMPLE = `--deps '{"name":"Ada"}' or --deps ./deps.ts (export const deps = { … })`;

/** A module's `exports`, whether `require` (CommonJS) or `import()` (a namespace) loaded it. */
function exportsOf(loaded: unknown): Record<string, unknown> {
  return (typeof loaded === 'object' || typeof loaded === 'function') && loaded !== null
    ? (loaded as Record<string, unknown>)
    : {};
}

function has(value: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** The module's `deps` export, else its default export; `found: false` when it has neither. */
function pick(loaded: unknown): { found: boolean; value: unknown } {
  let exports = exportsOf(loaded);
  // import() of a CommonJS module puts module.exports under `default`.
  const inner = exportsOf(exports.default);
  if (!has(exports, 'deps') && (has(inner, 'deps') || inner.__esModule === true)) exports = inner;
  if (has(exports, 'deps')) return { found: true, value: exports.deps };
  if (has(exports, 'default')) return { found: true, value: exports.default };
  return { found: false, value: undefined };
}

/**
 * Reads the deps `source` names, relative to `cwd`, loading a module with `load`. Every failure is
 * a {@link UsageError} that says what to pass instead.
 */
export async function loadDeps(
  source: DepsSource | undefined,
  cwd: string,
  load: ModuleLoader,
): Promise<LoadedDeps> {
  if (source === undefined) return {};
  if (source.kind === 'json') return { deps: source.value };
  const file = resolve(cwd, source.path);
  if (!existsSync(file))
    throw new UsageError(
      `--deps ${source.path} is neither JSON nor an existing module (no such file: ${file}); pass ${EXAMPLE}`,
    );
  let loaded: unknown;
  try {
    loaded = await load(file);
  } catch (error) {
    throw new UsageError(`--deps ${source.path}: loading ${file} failed: ${describeError(error)}`);
  }
  const { found, value } = pick(loaded);
  if (!found)
    throw new UsageError(
      `--deps ${source.path}: ${file} exports neither \`deps\` nor a default export; add \`export const deps = { … }\` (or a function returning them)`,
    );
  if (typeof value !== 'function') return { deps: value };
  try {
    return { deps: await (value as () => unknown)() };
  } catch (error) {
    throw new UsageError(
      `--deps ${source.path}: its deps function failed: ${describeError(error)}`,
    );
  }
}

/** The line that explains a failure when no `--deps` was given. */
export const NO_DEPS_HINT = `no --deps was given; if the agent reads its deps (ctx.deps), pass them: ${EXAMPLE}`;
