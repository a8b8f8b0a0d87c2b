/**
 * `golem a2a serve <module> [ExportName] [--port N] …`: serves an exported @Agent class (built
 * through the container, as `golem run` does) or an exported golem Agent over the Agent2Agent
 * protocol (A2A 1.0) on node:http. The bin (`bin/golem.js`) calls {@link main}; tests call
 * {@link a2aCommand}.
 */
import '../peers';
import 'reflect-metadata';
import { createHash, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { resolve } from 'node:path';
import type { RunStore } from '../../src/core/index';
import { ConfigError, describeError } from '../../src/core/index';
import {
  CARD_PATH,
  createA2AServer,
  type A2AServer,
  type AgentCardOverrides,
  type ServableAgent,
} from '../../src/a2a/index';
import { UsageError } from '../../decorators/cli/args';
import { A2A_USAGE, parseA2AArgs, type A2AServeArgs } from './a2a-args';
import { failureText } from './failure';
import { defaultRunLoader, findAgent, isAgentClass } from './load-agent';
import { prepare, type RunIO } from './run';
import { close, listen } from './http-listener';
import { stopSignal } from './stop-signal';

/** Opens the `--store` SQLite file as a run store. */
export type SqliteStoreOpener = (path: string) => RunStore;

/** Where the command writes and how it loads; plus `until`, which ends serving (tests). */
export interface A2AIO extends RunIO {
  /** Resolves when serving should stop; default: SIGINT or SIGTERM. */
  until?: Promise<void>;
  /** Receives the endpoint's public URL and the local origin (`http://host:port`) once listening. */
  onListening?: (url: string, local: string) => void;
  /** Opens `--store`; default `sqliteStore({ path })` of `golem/stores/sqlite` (an optional peer). */
  openStore?: SqliteStoreOpener;
}

/** `sqliteStore` of golem/stores/sqlite, loaded when `--store` is given. */
function openSqliteStore(path: string): RunStore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use: its driver is an optional peer
  const entry = require('golem/stores/sqlite') as {
    sqliteStore: (options: { path: string }) => RunStore;
  };
  return entry.sqliteStore({ path });
}

function isEngineAgent(value: unknown): value is ServableAgent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { run?: unknown }).run === 'function' &&
    typeof (value as { resume?: unknown }).resume === 'function'
  );
}

function exportsOf(loaded: unknown): Record<string, unknown> {
  return (typeof loaded === 'object' || typeof loaded === 'function') && loaded !== null
    ? (loaded as Record<string, unknown>)
    : {};
}

/** The export to serve: the one named, else the module's only @Agent class or Agent. */
function exportName(loaded: unknown, args: A2AServeArgs, file: string): string {
  if (args.exportName !== undefined) return args.exportName;
  const seen = new Map<unknown, string>();
  for (const [name, value] of Object.entries(exportsOf(loaded))) {
    if ((isAgentClass(value) || isEngineAgent(value)) && !seen.has(value)) seen.set(value, name);
  }
  const names = [...seen.values()];
  if (names.length === 1) return names[0] as string;
  if (names.length === 0)
    throw new UsageError(
      `${file} exports no @Agent class and no Agent: export the agent to serve (export class SupportAgent)`,
    );
  throw new UsageError(
    `${file} exports several agents (${names.join(', ')}): name the one to serve, e.g. golem a2a serve ${file} ${names[0] as string}`,
  );
}

/** The agent to serve, built from the module's export. */
function servedAgent(loaded: unknown, args: A2AServeArgs, file: string, io: RunIO): ServableAgent {
  const name = exportName(loaded, args, file);
  const found = findAgent(loaded, name, file);
  const value: unknown = found.agent;
  if (isAgentClass(value)) return prepare(found, { model: args.model }, io).agent;
  if (isEngineAgent(value)) {
    if (args.model !== undefined)
      throw new UsageError(
        `--model applies to an @Agent class; ${name} is an Agent, built with its own model`,
      );
    return value;
  }
  throw new UsageError(
    `${name} is not an @Agent class or an Agent; export one of those under the name you serve`,
  );
}

/** Checks `Authorization: Bearer <token>` in constant time. */
function bearer(token: string): (req: IncomingMessage) => boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const expected = digest(token);
  return (req) => {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
    return match !== null && timingSafeEqual(digest(match[1] as string), expected);
  };
}

/** The path the server serves for a request path: `--path` stands for the path of `--url`. */
function mapPath(pathname: string, route: string, base: string): string {
  if (route === base) return pathname;
  const routePrefix = route === '/' ? '' : route;
  if (pathname !== route && !pathname.startsWith(`${routePrefix}/`)) return pathname;
  const rest = pathname === route ? '' : pathname.slice(routePrefix.length);
  return `${base === '/' ? '' : base}${rest}` || '/';
}

/** Runs `golem a2a` with `argv` (after `a2a`) and returns the exit code once serving ends. */
export async function a2aCommand(argv: readonly string[], io: A2AIO = {}): Promise<number> {
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  let args: A2AServeArgs;
  try {
    args = parseA2AArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`golem a2a: ${error.message}`);
    err(A2A_USAGE);
    return 2;
  }
  if (args.help) {
    out(A2A_USAGE);
    return 0;
  }
  const env = io.env ?? process.env;
  let token: string | undefined;
  if (args.tokenEnv !== undefined) {
    token = env[args.tokenEnv]?.trim();
    if (token === undefined || token === '') {
      err(
        `golem a2a: --token-env ${args.tokenEnv}: the environment variable ${args.tokenEnv} is not set; set it to the token callers must send`,
      );
      return 2;
    }
  }
  const cwd = io.cwd ?? process.cwd();
  const file = resolve(cwd, args.module);
  if (!existsSync(file)) {
    err(`golem a2a: no such file: ${file}; give the path of the module that exports the agent`);
    return 2;
  }
  let agent: ServableAgent;
  try {
    agent = servedAgent(await (io.load ?? defaultRunLoader(cwd))(file), args, file, io);
  } catch (error) {
    err(`golem a2a: ${failureText(error, env)}`);
    return 2;
  }
  let store: RunStore | undefined;
  if (args.store !== undefined) {
    try {
      store = (io.openStore ?? openSqliteStore)(resolve(cwd, args.store));
    } catch (error) {
      err(
        ConfigError.is(error, undefined, 'missing-peer')
          ? `golem a2a: --store needs better-sqlite3, an optional peer dependency of golem that is not installed: npm install better-sqlite3`
          : `golem a2a: --store ${args.store}: ${describeError(error)}`,
      );
      return 2;
    }
  }
  return serve(agent, args, { ...io, env }, out, err, token, store);
}

async function serve(
  agent: ServableAgent,
  args: A2AServeArgs,
  io: A2AIO & { env: NonNullable<RunIO['env']> },
  out: (line: string) => void,
  err: (line: string) => void,
  token: string | undefined,
  store: RunStore | undefined,
): Promise<number> {
  const holder: { server?: A2AServer; base: string } = { base: args.path };
  const http = createServer((req, res) => {
    const server = holder.server;
    if (server === undefined) {
      res.writeHead(503).end();
      return;
    }
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const pathname = at === -1 ? url : url.slice(0, at);
    req.url = mapPath(pathname, args.path, holder.base) + (at === -1 ? '' : url.slice(at));
    void server.handle(req, res);
  });
  let port: number;
  try {
    port = await listen(http, args.port, args.host);
  } catch (error) {
    err(`golem a2a: cannot listen on ${args.host}:${String(args.port)}: ${describeError(error)}`);
    await store?.close();
    return 2;
  }
  const host = args.host.includes(':') ? `[${args.host}]` : args.host;
  const url = args.url ?? `http://${host}:${String(port)}${args.path}`;
  const card: AgentCardOverrides =
    token === undefined
      ? {}
      : { securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } } };
  let server: A2AServer;
  try {
    server = createA2AServer({
      agents: agent,
      url,
      card,
      ...(store !== undefined && { store }),
      ...(token !== undefined && { authenticate: bearer(token) }),
      // The client gets only `internal error (ref …)`; the operator reads why here.
      onError: (error, info) => {
        const what = info.taskId === undefined ? 'a request' : `task ${info.taskId}`;
        err(`golem a2a: ${what} failed (ref ${info.ref}): ${failureText(error, io.env)}`);
      },
    });
  } catch (error) {
    err(`golem a2a: ${failureText(error, io.env)}`);
    await close(http);
    await store?.close();
    return 2;
  }
  const base = new URL(url).pathname;
  holder.base = base.length > 1 && base.endsWith('/') ? base.slice(0, -1) : base;
  holder.server = server;
  const until = io.until ?? stopSignal();
  out(`A2A agent ${server.card.name} at ${url} (card ${url.replace(/\/$/, '')}/${CARD_PATH})`);
  io.onListening?.(url, `http://${host}:${String(port)}`);
  await until;
  server.close();
  await close(http);
  await store?.close();
  return 0;
}

/** The bin's entry point. */
export function main(argv: readonly string[]): Promise<number> {
  return a2aCommand(argv);
}
