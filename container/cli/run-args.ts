import { describeError } from '../../src/core/index';
import { onlyOnce, readArgs, UsageError } from '../../decorators/cli/args';

export { UsageError };

/** The parsed command line of `golem run`. */
export interface RunArgs {
  /** The module file exporting the agent class. */
  readonly module: string;
  /** The export name of the agent class. */
  readonly exportName: string;
  readonly prompt: string;
  /** The model string or binding name for the agent's model; default detected from the env. */
  readonly model: string | undefined;
  /** Where the run's deps come from (`--deps`), if given; {@link loadDeps} reads them. */
  readonly deps: DepsSource | undefined;
  readonly help: boolean;
}

/**
 * Where `--deps` takes the deps from (`golem run` and `golem mcp serve` alike): JSON text, or a
 * module file exporting them (see {@link depsHelp}).
 */
export type DepsSource =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'module'; readonly path: string };

/** The help lines of `--deps`, shared by the commands that take it; `column`: the text's indent. */
export function depsHelp(column: number): string {
  const pad = ' '.repeat(column);
  return [
    '  --deps <json|module>',
    `${pad}the deps every run receives (RunContext.deps): JSON, e.g. '{"name":"Ada"}',`,
    `${pad}or a module (./deps.ts, ./deps.js) exporting them as \`deps\` or as its default`,
    `${pad}export — a value, or a function (async allowed) called once to build them`,
  ].join('\n');
}

/** Usage text of `golem run`. */
export const RUN_USAGE = `usage: golem run <module> <ExportName> "<prompt>" [--model <spec>] [--deps <json|module>]

Loads the module, resolves the exported @Agent class through a container (constructor
injection; the module's exported ContainerModules are loaded first), runs it on the prompt and
prints the output, each message and the usage.

  --model <spec>  the model for the agent's binding: a model string (test, openai:gpt-4o-mini,
                  anthropic:claude-sonnet-4-5, ollama:llama3.2, …) or a binding name of the
                  module; default: the module's binding, else detected from the environment
                  (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, GOLEM_LOCAL_BASE_URL),
                  else test (offline)
${depsHelp(18)}
  -h, --help      show this help`;

/** Parses `argv` (the arguments after `run`). Throws {@link UsageError}. */
export function parseRunArgs(argv: readonly string[]): RunArgs {
  const positional: string[] = [];
  let model: string | undefined;
  let depsText: string | undefined;
  let help = false as boolean; // set inside the readArgs callback
  readArgs(argv, ({ arg, flag, value }) => {
    switch (flag) {
      case '--model':
        onlyOnce(flag, model);
        model = value().trim();
        break;
      case '--deps':
        onlyOnce(flag, depsText);
        depsText = value();
        break;
      case '-h':
      case '--help':
        help = true;
        break;
      default:
        if (arg.startsWith('-') && arg.length > 1) throw new UsageError(`unknown option ${arg}`);
        positional.push(arg);
    }
  });
  const [module = '', exportName = '', prompt, ...extra] = positional;
  if (!help) {
    if (module === '') throw new UsageError('no module given');
    if (exportName === '') throw new UsageError('no export name given (the agent class)');
    if (prompt === undefined) throw new UsageError('no prompt given');
    if (extra.length > 0)
      throw new UsageError(
        `unexpected argument ${JSON.stringify(extra[0])}; quote the prompt as one argument`,
      );
  }
  return {
    module,
    exportName,
    prompt: prompt ?? '',
    model,
    deps: depsText === undefined ? undefined : parseDepsOption(depsText),
    help,
  };
}

/** Text plainly meant as JSON rather than a path: an object, an array or a string. */
const LOOKS_LIKE_JSON = /^[{["]/;

/**
 * The value of `--deps`: JSON when it parses as JSON (or plainly tries to: `{…`, `[…`), else a
 * module path, loaded later (`loadDeps` in ./deps). Throws {@link UsageError} for broken JSON.
 */
export function parseDepsOption(text: string): DepsSource {
  const trimmed = text.trim();
  try {
    return { kind: 'json', value: JSON.parse(trimmed) as unknown };
  } catch (error) {
    if (LOOKS_LIKE_JSON.test(trimmed))
      throw new UsageError(
        `--deps is not valid JSON: ${describeError(error)}; quote the JSON for the shell, e.g. --deps '{"name":"Ada"}'`,
      );
  }
  return { kind: 'module', path: trimmed };
}
