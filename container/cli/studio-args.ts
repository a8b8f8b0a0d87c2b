import { onlyOnce, readArgs, UsageError } from '../../decorators/cli/args';

/** A `--model name=spec` of `golem studio`. */
export interface StudioModelArg {
  readonly name: string;
  /** A model string for `resolveModel` (`anthropic:claude-sonnet-4-5`, `test`, …). */
  readonly spec: string;
}

/** The parsed command line of `golem studio`. */
export interface StudioArgs {
  /** The module whose agents the studio serves; `undefined`: read-only over `--store`. */
  readonly module: string | undefined;
  /** A SQLite file or a `postgres://` URL; `undefined`: the store of the first agent with one. */
  readonly store: string | undefined;
  readonly port: number;
  readonly host: string;
  /** A folder of eval report JSON files. */
  readonly reports: string | undefined;
  readonly models: readonly StudioModelArg[];
  readonly owner: string | undefined;
  /** The API token; `undefined`: random. */
  readonly token: string | undefined;
  /** The built app folder; `undefined`: the package's `dist/studio/app`. */
  readonly app: string | undefined;
  /** A `redis://` URL of the run queue (golem/queue) the studio acts through; a secret: never printed. */
  readonly redis: string | undefined;
  /** The queue's Redis key prefix (golem/queue's `prefix`); `undefined`: its default. */
  readonly queuePrefix: string | undefined;
  readonly help: boolean;
}

/** The default port of `golem studio`. */
export const STUDIO_PORT = 4983;

/** Usage text of `golem studio`. */
export const STUDIO_USAGE = `usage: golem studio [module] [--store <file.db | postgres://…>] [--port N] [--host H]
                    [--reports <dir>] [--model name=spec]… [--owner <key>] [--token <t>]
                    [--app <dir>] [--redis <redis://…>] [--queue-prefix <p>]

Serves Golem Studio (runs, timelines, approvals, replays, playground, eval reports, traces)
over a run store, on node:http. Every exported @Agent class of the module (resolved through a
container, as golem run does) and every exported golem Agent is a studio agent, by name;
without a module the studio only reads the store (no playground, no actions).

  --store <file.db>     the run store: a SQLite file (golem/stores/sqlite; needs better-sqlite3)
  --store postgres://…  or a PostgreSQL URL (golem/stores/postgres; needs pg)
                        default: the store of the first exported agent that has one
  --port N              port; default ${String(STUDIO_PORT)} (0: a free port)
  --host H              interface; default 127.0.0.1 (another host makes the studio reachable
                        from the network: anyone with the token can act on runs)
  --reports <dir>       a folder of eval report JSON files (the Evals page)
  --model name=spec     a model replays and the playground may pick (repeatable), e.g.
                        --model sonnet=anthropic:claude-sonnet-4-5
  --owner <key>         show and act on this owner's runs only; the playground's runs get it
  --token <t>           the API token (at least 16 characters); default: random
  --app <dir>           the built studio app; default: the package's dist/studio/app
  --redis <redis://…>   act through the run queue (golem/queue) on this Redis: run pages show
                        each run's queue state, decisions and resumes go to its workers, and
                        queued or running runs can be cancelled (needs bullmq and ioredis)
  --queue-prefix <p>    the queue's Redis key prefix, as its workers use; default golem
  -h, --help            show this help

Prints "Golem Studio at http://127.0.0.1:<port>/?token=<token>" once listening, and serves
until SIGINT or SIGTERM.`;

function modelArg(text: string, seen: readonly StudioModelArg[]): StudioModelArg {
  const at = text.indexOf('=');
  const name = at < 0 ? '' : text.slice(0, at).trim();
  const spec = at < 0 ? '' : text.slice(at + 1).trim();
  if (name === '' || spec === '')
    throw new UsageError(`--model takes name=spec (e.g. fast=openai:gpt-4o-mini), got ${text}`);
  if (seen.some((m) => m.name === name)) throw new UsageError(`--model ${name} is given twice`);
  return { name, spec };
}

/** Parses `argv` (the arguments after `studio`). Throws {@link UsageError}. */
export function parseStudioArgs(argv: readonly string[]): StudioArgs {
  const positional: string[] = [];
  let store: string | undefined;
  let port = STUDIO_PORT;
  let host = '127.0.0.1';
  let reports: string | undefined;
  const models: StudioModelArg[] = [];
  let owner: string | undefined;
  let token: string | undefined;
  let app: string | undefined;
  let redis: string | undefined;
  let queuePrefix: string | undefined;
  let help = false as boolean; // set inside the readArgs callback
  readArgs(argv, ({ arg, flag, value }) => {
    switch (flag) {
      case '--store':
        onlyOnce(flag, store);
        store = value({ dashes: false }).trim();
        break;
      case '--port': {
        const text = value();
        port = Number(text);
        if (!/^\d+$/.test(text) || port > 65535)
          throw new UsageError(`--port must be 0–65535, got ${text}`);
        break;
      }
      case '--host':
        host = value({ dashes: false }).trim();
        break;
      case '--reports':
        onlyOnce(flag, reports);
        reports = value({ dashes: false });
        break;
      case '--model':
        models.push(modelArg(value({ dashes: false }), models));
        break;
      case '--owner':
        onlyOnce(flag, owner);
        owner = value();
        break;
      case '--token': {
        onlyOnce(flag, token);
        const text = value();
        if (text.length < 16 || /\s/.test(text))
          throw new UsageError('--token must be at least 16 characters, without spaces');
        token = text;
        break;
      }
      case '--app':
        onlyOnce(flag, app);
        app = value({ dashes: false });
        break;
      case '--redis': {
        onlyOnce(flag, redis);
        const text = value({ dashes: false }).trim();
        // The URL may carry a password: the error never repeats it.
        if (!/^rediss?:\/\//i.test(text))
          throw new UsageError('--redis takes a redis:// or rediss:// URL');
        redis = text;
        break;
      }
      case '--queue-prefix':
        onlyOnce(flag, queuePrefix);
        queuePrefix = value();
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
  const [module, ...extra] = positional;
  if (!help && extra.length > 0)
    throw new UsageError(
      `unexpected argument ${JSON.stringify(extra[0])}: golem studio takes at most one module`,
    );
  if (queuePrefix !== undefined && redis === undefined)
    throw new UsageError('--queue-prefix needs --redis');
  return {
    module,
    store,
    port,
    host,
    reports,
    models,
    owner,
    token,
    app,
    redis,
    queuePrefix,
    help,
  };
}
