/**
 * `golem run <module> <ExportName> "<prompt>" [--model <spec>] [--deps <json|module>]`: resolves an
 * exported `@Agent` class through a container, runs it and prints the output, each message and
 * the usage. The bin (`bin/golem.js`) calls {@link main}; tests call {@link runCommand}.
 */
import '../peers';
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Container } from 'inversify';
import type { Result } from '../../src/core/index';
import { RunError } from '../../src/core/index';
import type {
  ResolveEnvironment,
  ResolveModelOptions,
  TestModelFactory,
} from '../../src/providers/resolve/index';
import { detectDefaultModel } from '../../src/providers/resolve/index';
import { AGENT_REGISTRATIONS, bindAgent, type AgentRegistration } from '../bind-agent';
import { golemModule } from '../golem-module';
import { boundModel } from '../model-bindings';
import { isModelString } from '../model-source';
import { MODEL_STRINGS } from '../model-strings';
import { overrideModel } from '../overrides';
import { resolveAgent } from '../resolve-agent';
import { definitionOf, modelToken, type ResolvedAgent } from '../tokens';
import {
  defaultRunLoader,
  findAgent,
  type LoadedAgentModule,
  type ModuleLoader,
} from './load-agent';
import { loadDeps, NO_DEPS_HINT, type LoadedDeps } from './deps';
import { failureText } from './failure';
import { messageLine, resultLines } from './print-result';
import { parseRunArgs, RUN_USAGE, UsageError, type RunArgs } from './run-args';

/** Where the command writes, what it reads and loads with; every field has a default. */
export interface RunIO {
  /** Receives each line of normal output; default `process.stdout`. */
  stdout?: (line: string) => void;
  /** Receives each line of error output; default `process.stderr`. */
  stderr?: (line: string) => void;
  /** Resolves the module path; default `process.cwd()`. */
  cwd?: string;
  /** Where keys are read and the default model is detected; default `process.env`. */
  env?: ResolveEnvironment;
  /** Loads the module; default `require` (with a TypeScript hook for `.ts` files). */
  load?: ModuleLoader;
  /** Builds the model for `test` strings; default `TestModel`. */
  testModel?: TestModelFactory;
  /** The `fetch` provider adapters use. */
  fetch?: ResolveModelOptions['fetch'];
}

/** Exit codes: 0 success, 1 the run failed, 2 usage or setup errors. */
export const RUN_EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2 });

/** A module's agent, ready to run: the resolved agent, its container, and the model line. */
export interface Prepared {
  readonly agent: ResolvedAgent<LoadedAgentModule['agent']>;
  readonly modelLine: string;
  /** The container it was resolved from (the class instance: `container.get(found.agent)`). */
  readonly container: Container;
}

/**
 * Builds the container: the module's exported `ContainerModule`s, then `golemModule` unless they
 * load one, the agent class unless they bind it, and the agent's model binding — `--model` over
 * everything, else the module's binding, else `detectDefaultModel(env)`.
 */
export function prepare(
  found: LoadedAgentModule,
  args: Pick<RunArgs, 'model'>,
  io: RunIO,
): Prepared {
  const env = io.env ?? process.env;
  const definition = definitionOf(found.agent);
  const container = new Container({ autobind: true });
  container.load(...found.modules);
  if (!container.isBound(MODEL_STRINGS)) {
    container.load(
      golemModule({
        env,
        ...(io.testModel !== undefined && { testModel: io.testModel }),
        ...(io.fetch !== undefined && { fetch: io.fetch }),
      }),
    );
  }
  const registrations = container.getAll<AgentRegistration>(AGENT_REGISTRATIONS, {
    optional: true,
  });
  if (!registrations.some((registration) => registration.target === found.agent))
    bindAgent(container, found.agent);
  const name = definition.model;
  let source: string;
  if (args.model !== undefined) {
    overrideModel(container, name, args.model);
    source = `--model ${args.model}`;
  } else if (boundModel(container, name) !== undefined) {
    source = 'bound by the module';
  } else {
    const spec = isModelString(name) ? name : detectDefaultModel(env);
    overrideModel(container, name, spec);
    source = spec === name ? 'the model string' : 'detected from the environment';
  }
  const model = container.get(modelToken(name));
  return {
    agent: resolveAgent(container, found.agent),
    modelLine: `model: ${model.name ?? '(unnamed)'} (binding "${name}", ${source})`,
    container,
  };
}

/** Runs the command with `argv` (the arguments after `run`) and returns the exit code. */
export async function runCommand(argv: readonly string[], io: RunIO = {}): Promise<number> {
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  let args: RunArgs;
  try {
    args = parseRunArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`golem run: ${error.message}`);
    err(RUN_USAGE);
    return RUN_EXIT.usage;
  }
  if (args.help) {
    out(RUN_USAGE);
    return RUN_EXIT.ok;
  }
  const file = resolve(io.cwd ?? process.cwd(), args.module);
  if (!existsSync(file)) {
    err(`golem run: no such file: ${file}; give the path of the module that exports the agent`);
    return RUN_EXIT.usage;
  }
  const cwd = io.cwd ?? process.cwd();
  const load = io.load ?? defaultRunLoader(cwd);
  let prepared: Prepared;
  let deps: LoadedDeps;
  try {
    const loaded = await load(file);
    prepared = prepare(findAgent(loaded, args.exportName, file), args, io);
    deps = await loadDeps(args.deps, cwd, load);
  } catch (error) {
    err(`golem run: ${failureText(error, io.env ?? process.env)}`);
    return RUN_EXIT.usage;
  }
  out(`agent: ${args.exportName}`);
  out(prepared.modelLine);
  let result: Result<unknown>;
  try {
    result = await prepared.agent.run(args.prompt, deps);
  } catch (error) {
    err(`golem run: ${failureText(error, io.env ?? process.env)}`);
    if (args.deps === undefined) err(`golem run: ${NO_DEPS_HINT}`);
    if (RunError.is(error) && error.partial !== undefined) {
      err('messages before the failure:');
      for (const message of error.partial.messages) err(`  ${messageLine(message)}`);
    }
    return RUN_EXIT.failed;
  }
  for (const line of resultLines(result)) out(line);
  return RUN_EXIT.ok;
}

/** The bin's entry point: runs `golem run` with `argv` and returns the exit code. */
export function main(argv: readonly string[]): Promise<number> {
  return runCommand(argv);
}
