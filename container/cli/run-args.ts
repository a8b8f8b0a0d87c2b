import { describeError } from '../../src/core/index';
import { UsageError } from '../../decorators/cli/args';

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
  /** The run's deps, parsed from JSON. */
  readonly deps: unknown;
  readonly hasDeps: boolean;
  readonly help: boolean;
}

/** Usage text of `golem run`. */
export const RUN_USAGE = `usage: golem run <module> <ExportName> "<prompt>" [--model <spec>] [--deps <json>]

Loads the module, resolves the exported @Agent class through a container (constructor
injection; the module's exported ContainerModules are loaded first), runs it on the prompt and
prints the output, each message and the usage.

  --model <spec>  the model for the agent's binding: a model string (test, openai:gpt-4o-mini,
                  anthropic:claude-sonnet-4-5, ollama:llama3.2, …) or a binding name of the
                  module; default: the module's binding, else detected from the environment
                  (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, GOLEM_LOCAL_BASE_URL),
                  else test (offline)
  --deps <json>   the run's deps, as JSON (e.g. '{"name":"Ada"}')
  -h, --help      show this help`;

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}

/** Parses `argv` (the arguments after `run`). Throws {@link UsageError}. */
export function parseRunArgs(argv: readonly string[]): RunArgs {
  const positional: string[] = [];
  let model: string | undefined;
  let depsText: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    const value = (): string => {
      const next = inline ?? argv[++i];
      if (next === undefined || next.trim() === '') throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--model':
        if (model !== undefined) throw new UsageError('--model is given twice');
        model = value().trim();
        break;
      case '--deps':
        if (depsText !== undefined) throw new UsageError('--deps is given twice');
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
  }
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
    deps: depsText === undefined ? undefined : parseDeps(depsText),
    hasDeps: depsText !== undefined,
    help,
  };
}

function parseDeps(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`--deps is not valid JSON: ${describeError(error)}`);
  }
}
