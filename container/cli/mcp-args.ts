import { onlyOnce, readArgs, UsageError } from '../../decorators/cli/args';
import { depsHelp, parseDepsOption, type DepsSource } from './run-args';

/** The parsed command line of `golem mcp serve`. */
export interface McpServeArgs {
  readonly module: string;
  readonly exportName: string;
  /** Serve over Streamable HTTP instead of stdio. */
  readonly http: boolean;
  readonly port: number;
  readonly host: string;
  /** The model string or binding for an agent class's model (as `golem run --model`). */
  readonly model: string | undefined;
  /** What of a decorated agent class to serve. */
  readonly expose: 'both' | 'tools' | 'agent';
  /** The deps of every call (`--deps`, as `golem run`), if given. */
  readonly deps: DepsSource | undefined;
  readonly help: boolean;
}

/** Usage text of `golem mcp`. */
export const MCP_USAGE = `usage: golem mcp serve <module> <ExportName> [--http] [--port N] [--host H]
                       [--model <spec>] [--deps <json|module>] [--expose both|tools|agent]

Serves an export of the module as an MCP server, over stdio (default) or Streamable HTTP:
  - an @Agent class: resolved through a container (as golem run does); its @Tool methods become
    MCP tools (schemas from their DTOs, arguments validated) and the agent itself one more tool
    taking { prompt } (named after the class, e.g. weather_agent)
  - a Tool, an array of Tools, or an Agent instance (served as a tool taking { prompt })

  --http             serve over Streamable HTTP (prints the endpoint URL); default stdio
  --port N           HTTP port; default 0 (a free port)
  --host H           HTTP interface; default 127.0.0.1
  --model <spec>     the agent class's model (see golem run --help)
${depsHelp(21)}
  --expose <what>    for an @Agent class: both (default), tools or agent
  -h, --help         show this help

Over stdio, stdout carries the protocol: the command writes nothing else there, and what the
served module writes to stdout (console.log included) goes to stderr.`;

/** Parses `argv` (the arguments after `mcp`). Throws {@link UsageError}. */
export function parseMcpArgs(argv: readonly string[]): McpServeArgs {
  const [sub, ...rest] = argv;
  if (sub === '-h' || sub === '--help' || sub === undefined) {
    return {
      module: '',
      exportName: '',
      http: false,
      port: 0,
      host: '127.0.0.1',
      model: undefined,
      expose: 'both',
      deps: undefined,
      help: true,
    };
  }
  if (sub !== 'serve')
    throw new UsageError(
      `unknown subcommand "${sub}" (only "serve"): golem mcp serve <module> <ExportName>`,
    );
  const positional: string[] = [];
  let http = false;
  let port = 0;
  let host = '127.0.0.1';
  let model: string | undefined;
  let expose: McpServeArgs['expose'] = 'both';
  let deps: DepsSource | undefined;
  let help = false as boolean; // set inside the readArgs callback
  readArgs(rest, ({ arg, flag, inline, value }) => {
    switch (flag) {
      case '--http':
        if (inline !== undefined) throw new UsageError('--http takes no value');
        http = true;
        break;
      case '--port': {
        const text = value();
        port = Number(text);
        if (!Number.isInteger(port) || port < 0 || port > 65535)
          throw new UsageError(`--port must be 0–65535, got ${text}`);
        break;
      }
      case '--host':
        host = value();
        break;
      case '--model':
        model = value().trim();
        break;
      case '--deps':
        onlyOnce(flag, deps);
        deps = parseDepsOption(value());
        break;
      case '--expose': {
        const text = value();
        if (text !== 'both' && text !== 'tools' && text !== 'agent')
          throw new UsageError(`--expose must be both, tools or agent, got ${text}`);
        expose = text;
        break;
      }
      case '-h':
      case '--help':
        help = true;
        break;
      default:
        if (arg.startsWith('-') && arg.length > 1) throw new UsageError(`unknown option ${arg}`);
        positional.push(arg);
    }
  });
  const [module = '', exportName = '', ...extra] = positional;
  if (!help) {
    if (module === '') throw new UsageError('no module given');
    if (exportName === '')
      throw new UsageError(
        'no export name given (the @Agent class, Tool, Tools or Agent to serve)',
      );
    if (extra.length > 0)
      throw new UsageError(
        `unexpected argument ${JSON.stringify(extra[0])}: serve takes one module and one export name`,
      );
  }
  return { module, exportName, http, port, host, model, expose, deps, help };
}
