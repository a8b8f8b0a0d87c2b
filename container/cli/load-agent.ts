/**
 * Loading the module named on the `golem run` command line, and finding the agent class and the
 * container modules it exports.
 */
import { ContainerModule } from 'inversify';
import { defaultLoader, type ModuleLoader } from '../../decorators/cli/load-modules';
import { compileAgentClass } from '../../decorators/index';
import { UsageError } from './run-args';
import type { AgentClass } from '../tokens';

export type { ModuleLoader };

/**
 * The default loader: Node's `require`, with a TypeScript hook for `.ts` files (the loader of
 * `golem schemas --check`: @swc-node/register with the project's tsconfig, or the TypeScript loader
 * already active). `cwd` is where the project is looked for; default `process.cwd()`.
 */
export function defaultRunLoader(cwd: string = process.cwd()): ModuleLoader {
  return defaultLoader(cwd);
}

/** What a loaded module offers `golem run`. */
export interface LoadedAgentModule {
  readonly agent: AgentClass;
  /** The `ContainerModule`s the module exports, in export order. */
  readonly modules: readonly ContainerModule[];
}

/** Whether `value` is an `@Agent` class (its definition compiles). */
export function isAgentClass(value: unknown): boolean {
  if (typeof value !== 'function') return false;
  try {
    compileAgentClass(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds `exportName` and the exported container modules in a loaded module. A missing export is
 * a {@link UsageError} listing the exported agent classes; whether the export is an agent is
 * checked by the container (`not-an-agent`).
 */
export function findAgent(loaded: unknown, exportName: string, file: string): LoadedAgentModule {
  const exports =
    (typeof loaded === 'object' || typeof loaded === 'function') && loaded !== null
      ? (loaded as Record<string, unknown>)
      : {};
  const values = Object.entries(exports);
  const modules = values
    .map(([, value]) => value)
    .filter((value): value is ContainerModule => value instanceof ContainerModule);
  if (!Object.prototype.hasOwnProperty.call(exports, exportName)) {
    const agents = values.filter(([, value]) => isAgentClass(value)).map(([name]) => name);
    throw new UsageError(
      `${file} exports no ${JSON.stringify(exportName)}; ${agents.length === 0 ? `it exports no @Agent class: export the class (export class ${exportName})` : `its @Agent classes: ${agents.join(', ')}`}`,
    );
  }
  return { agent: exports[exportName] as AgentClass, modules };
}
