import { readArgs, UsageError } from '../../decorators/cli/args';

/** The parsed command line of `golem a2a serve`. */
export interface A2AServeArgs {
  readonly module: string;
  /** The export to serve; `undefined`: the module's only @Agent class or Agent. */
  readonly exportName: string | undefined;
  readonly port: number;
  readonly host: string;
  /** The route of the JSON-RPC endpoint, starting with '/'. */
  readonly path: string;
  /** The public URL of the endpoint; default `http://<host>:<port><path>`. */
  readonly url: string | undefined;
  /** A SQLite file for durable tasks. */
  readonly store: string | undefined;
  /** The environment variable holding the bearer token callers must present. */
  readonly tokenEnv: string | undefined;
  /** The model string or binding for an agent class's model (as `golem run --model`). */
  readonly model: string | undefined;
  readonly help: boolean;
}

/** Usage text of `golem a2a`. */
export const A2A_USAGE = `usage: golem a2a serve <module> [ExportName] [--port N] [--host H] [--path P]
                       [--url U] [--store <file.db>] [--token-env NAME] [--model <spec>]

Serves an export of the module over the Agent2Agent protocol (A2A 1.0, JSON-RPC binding) on
node:http: the agent card at <path>/.well-known/agent-card.json (and /.well-known/agent-card.json),
SendMessage, SendStreamingMessage, GetTask, CancelTask, SubscribeToTask. The export is
  - an @Agent class: resolved through a container (as golem run does); its @Tools are the card's skills
  - or a golem Agent instance.
Without ExportName, the module's only @Agent class or Agent is served.

  --port N           port; default 3000 (0: a free port)
  --host H           interface; default 127.0.0.1
  --path P           route of the endpoint; default /a2a
  --url U            public URL of the endpoint (the card's); default http://<host>:<port><path>
  --store <file.db>  keep tasks in this SQLite file (golem/stores/sqlite; needs better-sqlite3)
  --token-env NAME   require "Authorization: Bearer <value of $NAME>" (the card declares it)
  --model <spec>     the agent class's model (see golem run --help)
  -h, --help         show this help

Prints one line once listening, and serves until SIGINT or SIGTERM.`;

const HELP: A2AServeArgs = {
  module: '',
  exportName: undefined,
  port: 3000,
  host: '127.0.0.1',
  path: '/a2a',
  url: undefined,
  store: undefined,
  tokenEnv: undefined,
  model: undefined,
  help: true,
};

function checkUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError(`--url must be an absolute http(s) URL, got ${text}`);
  return text;
}

function checkPath(text: string): string {
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(text) || text.includes('//'))
    throw new UsageError(`--path must be a route such as /a2a, got ${text}`);
  return text.length > 1 && text.endsWith('/') ? text.slice(0, -1) : text;
}

/** Parses `argv` (the arguments after `a2a`). Throws {@link UsageError}. */
export function parseA2AArgs(argv: readonly string[]): A2AServeArgs {
  const [sub, ...rest] = argv;
  if (sub === '-h' || sub === '--help' || sub === undefined) return HELP;
  if (sub !== 'serve')
    throw new UsageError(
      `unknown subcommand "${sub}" (only "serve"): golem a2a serve <module> [ExportName]`,
    );
  const positional: string[] = [];
  let port = 3000;
  let host = '127.0.0.1';
  let path = '/a2a';
  let url: string | undefined;
  let store: string | undefined;
  let tokenEnv: string | undefined;
  let model: string | undefined;
  let help = false as boolean; // set inside the readArgs callback
  readArgs(rest, ({ arg, flag, value }) => {
    switch (flag) {
      case '--port': {
        const text = value();
        port = Number(text);
        if (!/^\d+$/.test(text) || port > 65535)
          throw new UsageError(`--port must be 0–65535, got ${text}`);
        break;
      }
      case '--host':
        host = value();
        break;
      case '--path':
        path = checkPath(value());
        break;
      case '--url':
        url = checkUrl(value());
        break;
      case '--store':
        store = value();
        break;
      case '--token-env': {
        const text = value();
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(text))
          throw new UsageError(
            `--token-env takes the name of an environment variable, got ${text}`,
          );
        tokenEnv = text;
        break;
      }
      case '--model':
        model = value().trim();
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
  if (help) return HELP;
  const [module = '', exportName, ...extra] = positional;
  if (module === '') throw new UsageError('no module given');
  if (extra.length > 0)
    throw new UsageError(
      `unexpected argument ${JSON.stringify(extra[0])}: serve takes one module and at most one export name`,
    );
  return { module, exportName, port, host, path, url, store, tokenEnv, model, help: false };
}
