/**
 * `golem studio [module] [--store <file.db | postgres://…>] [--port N] [--redis <url>] …`: serves
 * Golem Studio over a run store (and, with `--redis`, a golem/queue run queue) on node:http, with
 * the module's exported @Agent classes (built through the container, as `golem run` does) and
 * golem Agents as its agents. The bin (`bin/golem.js`) calls
 * {@link main}; tests call {@link studioCommand}.
 */
import '../peers';
import 'reflect-metadata';
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { ConfigError, StoreError, type Model, type RunStore } from '../../src/core/index';
import { resolveModel } from '../../src/providers/resolve/index';
import {
  createStudio,
  type Studio,
  type StudioAgent,
  type StudioQueue,
} from '../../src/studio/index';
import { TestModel } from '../../src/testing/index';
import { UsageError } from '../../decorators/cli/args';
import { failureText } from './failure';
import { defaultRunLoader, findAgent, isAgentClass } from './load-agent';
import { prepare, type RunIO } from './run';
import { close, listen } from './http-listener';
import { stopSignal } from './stop-signal';
import { parseStudioArgs, STUDIO_USAGE, type StudioArgs } from './studio-args';

/** Opens the `--store` argument (a SQLite path, already resolved, or a `postgres://` URL). */
export type StudioStoreOpener = (spec: string) => RunStore;

/** What `--redis` opens: golem/queue's `runQueue` options the studio passes. */
export interface StudioQueueSpec {
  /** The `redis://` URL (a secret: never printed). */
  readonly connection: string;
  readonly store: RunStore;
  readonly prefix?: string;
  /** Background Redis errors. */
  readonly onError: (error: Error) => void;
}

/** Opens the run queue of `--redis`; closed when serving ends. */
export type StudioQueueOpener = (spec: StudioQueueSpec) => StudioQueue & {
  close(): Promise<void>;
};

/** Where the command writes and how it loads; plus `until`, which ends serving (tests). */
export interface StudioIO extends RunIO {
  /** Resolves when serving should stop; default: SIGINT or SIGTERM. */
  until?: Promise<void>;
  /** Receives the studio's URL (with its token) once listening. */
  onListening?: (url: string) => void;
  /** Opens `--store`; default `sqliteStore` / `postgresStore` of golem/stores (optional peers). */
  openStore?: StudioStoreOpener;
  /** Opens `--redis`; default `runQueue` of golem/queue (its peers bullmq and ioredis are optional). */
  openQueue?: StudioQueueOpener;
}

/** How a `--redis` URL is printed: its scheme only (the URL may carry a password). */
const SHOWN_REDIS = 'redis://…';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function isPostgresUrl(spec: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(spec);
}

/** `sqliteStore` of golem/stores/sqlite or `postgresStore` of golem/stores/postgres, on use. */
function openStoreByName(spec: string): RunStore {
  if (isPostgresUrl(spec)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use: its driver is an optional peer
    const entry = require('golem/stores/postgres') as {
      postgresStore: (options: { connectionString: string }) => RunStore;
    };
    return entry.postgresStore({ connectionString: spec });
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use: its driver is an optional peer
  const entry = require('golem/stores/sqlite') as {
    sqliteStore: (options: { path: string }) => RunStore;
  };
  return entry.sqliteStore({ path: spec });
}

/** `runQueue` of golem/queue, on use (bullmq and ioredis are optional peers). */
function openQueueByName(spec: StudioQueueSpec): StudioQueue & { close(): Promise<void> } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use: its peers are optional
  const entry = require('golem/queue') as {
    runQueue: (options: StudioQueueSpec) => StudioQueue & { close(): Promise<void> };
  };
  return entry.runQueue(spec);
}

/** `text` without the secret `url`: the URL shown as {@link SHOWN_REDIS}, its password as `…`. */
function withoutUrl(text: string, url: string): string {
  let shown = text.split(url).join(SHOWN_REDIS);
  let passwords: string[] = [];
  try {
    const raw = new URL(url).password;
    passwords = [raw, decodeURIComponent(raw)];
  } catch {
    // not a parsable URL: only its whole text is hidden
  }
  for (const password of passwords) if (password !== '') shown = shown.split(password).join('…');
  return shown;
}

/** The packages a missing-peer error names (golem/queue's: bullmq, ioredis). */
function missingPackages(error: unknown): string {
  const packages = (error as { packages?: unknown }).packages;
  return Array.isArray(packages) && packages.length > 0 ? packages.join(' ') : 'bullmq ioredis';
}

/** A golem Agent instance (not a class): what the studio can serve as it is. */
function isEngineAgent(value: unknown): value is StudioAgent & { store?: RunStore } {
  if (typeof value !== 'object' || value === null) return false;
  const agent = value as Record<string, unknown>;
  return (
    typeof agent.name === 'string' &&
    typeof agent.run === 'function' &&
    typeof agent.resumeRun === 'function' &&
    typeof agent.describe === 'function'
  );
}

/** Every exported @Agent class (built through a container) and Agent of the module, by name. */
function agentsOf(
  loaded: unknown,
  file: string,
  io: RunIO,
  warn: (line: string) => void,
): Map<string, StudioAgent & { store?: RunStore }> {
  const exports =
    (typeof loaded === 'object' || typeof loaded === 'function') && loaded !== null
      ? (loaded as Record<string, unknown>)
      : {};
  const seen = new Set<unknown>();
  const agents = new Map<string, StudioAgent & { store?: RunStore }>();
  for (const [exportName, value] of Object.entries(exports)) {
    if (seen.has(value)) continue;
    seen.add(value);
    let agent: (StudioAgent & { store?: RunStore }) | undefined;
    if (isAgentClass(value))
      agent = prepare(findAgent(loaded, exportName, file), { model: undefined }, io).agent;
    else if (isEngineAgent(value)) agent = value;
    if (agent === undefined) continue;
    if (agents.has(agent.name)) {
      warn(
        `golem studio: warning: two exports are agents named "${agent.name}"; the studio keeps the first (${exportName} is left out)`,
      );
      continue;
    }
    agents.set(agent.name, agent);
  }
  if (agents.size === 0)
    throw new UsageError(
      `${file} exports no @Agent class and no Agent: export the agents the studio should serve`,
    );
  return agents;
}

function missingDriver(error: unknown): boolean {
  return (
    ConfigError.is(error, undefined, 'missing-peer') ||
    (StoreError.is(error) && error.reason === 'driver-missing')
  );
}

/** The host of the printed URL: the interface, or 127.0.0.1 for a wildcard one. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Runs `golem studio` with `argv` (after `studio`) and returns the exit code once serving ends. */
export async function studioCommand(argv: readonly string[], io: StudioIO = {}): Promise<number> {
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  let args: StudioArgs;
  try {
    args = parseStudioArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`golem studio: ${error.message}`);
    err(STUDIO_USAGE);
    return 2;
  }
  if (args.help) {
    out(STUDIO_USAGE);
    return 0;
  }
  const env = io.env ?? process.env;
  const cwd = io.cwd ?? process.cwd();
  const reports = args.reports === undefined ? undefined : resolve(cwd, args.reports);
  if (reports !== undefined && !(existsSync(reports) && statSync(reports).isDirectory())) {
    err(`golem studio: --reports ${reports}: no such folder`);
    return 2;
  }
  const models: Record<string, Model> = {};
  try {
    for (const { name, spec } of args.models)
      models[name] = resolveModel(spec, {
        env,
        testModel: io.testModel ?? ((label) => new TestModel({ name: label })),
        ...(io.fetch !== undefined && { fetch: io.fetch }),
      });
  } catch (error) {
    err(`golem studio: --model: ${failureText(error, env)}`);
    return 2;
  }
  let agents = new Map<string, StudioAgent & { store?: RunStore }>();
  if (args.module !== undefined) {
    const file = resolve(cwd, args.module);
    if (!existsSync(file)) {
      err(
        `golem studio: no such file: ${file}; give the path of the module that exports the agents`,
      );
      return 2;
    }
    try {
      agents = agentsOf(await (io.load ?? defaultRunLoader(cwd))(file), file, io, err);
    } catch (error) {
      err(`golem studio: ${failureText(error, env)}`);
      return 2;
    }
  }
  let store: RunStore | undefined;
  if (args.store !== undefined) {
    const pg = isPostgresUrl(args.store);
    const shown = pg ? 'postgres://…' : args.store;
    try {
      store = (io.openStore ?? openStoreByName)(pg ? args.store : resolve(cwd, args.store));
    } catch (error) {
      const peer = pg ? 'pg' : 'better-sqlite3';
      err(
        missingDriver(error)
          ? `golem studio: --store needs ${peer}, an optional peer dependency of golem that is not installed: npm install ${peer}`
          : `golem studio: --store ${shown}: ${failureText(error, env)}`,
      );
      return 2;
    }
  } else {
    store = [...agents.values()].find((agent) => agent.store !== undefined)?.store;
    if (store === undefined) {
      err('golem studio: no run store: pass --store <file.db> or postgres://…');
      return 2;
    }
  }
  return serve(args, { ...io, env }, out, err, store, [...agents.values()], models, reports);
}

async function serve(
  args: StudioArgs,
  io: StudioIO & { env: NonNullable<RunIO['env']> },
  out: (line: string) => void,
  err: (line: string) => void,
  store: RunStore,
  agents: readonly StudioAgent[],
  models: Record<string, Model>,
  reports: string | undefined,
): Promise<number> {
  const loopback = LOOPBACK.has(args.host.toLowerCase());
  if (!loopback)
    err(
      `golem studio: warning: --host ${args.host} is not a loopback interface: the studio is reachable from the network, and anyone with its token can read and act on runs`,
    );
  let queue: (StudioQueue & { close(): Promise<void> }) | undefined;
  if (args.redis !== undefined) {
    const url = args.redis;
    const shown = (error: unknown): string => withoutUrl(failureText(error, io.env), url);
    try {
      queue = (io.openQueue ?? openQueueByName)({
        connection: url,
        store,
        ...(args.queuePrefix !== undefined && { prefix: args.queuePrefix }),
        onError: (error) => {
          err(`golem studio: the run queue (${SHOWN_REDIS}): ${shown(error)}`);
        },
      });
    } catch (error) {
      if (ConfigError.is(error, undefined, 'missing-peer')) {
        const packages = missingPackages(error);
        const one = !packages.includes(' ');
        err(
          `golem studio: --redis needs ${packages.split(' ').join(' and ')}, ${one ? 'an optional peer dependency' : 'optional peer dependencies'} of golem that ${one ? 'is' : 'are'} not installed: npm install ${packages}`,
        );
      } else err(`golem studio: --redis ${SHOWN_REDIS}: ${shown(error)}`);
      await store.close();
      return 2;
    }
  }
  let studio: Studio;
  try {
    studio = createStudio({
      store,
      agents,
      ...(queue !== undefined && { queue }),
      models,
      ...(args.owner !== undefined && { owner: args.owner }),
      ...(reports !== undefined && { reports }),
      ...(args.token !== undefined && { token: args.token }),
      ...(!loopback && { allowedHosts: [args.host.replace(/^\[|\]$/g, '')] }),
      ...(args.app !== undefined && { appDir: resolve(io.cwd ?? process.cwd(), args.app) }),
      // The client gets only `internal error (ref …)`; the operator reads why here.
      onError: (error, info) => {
        err(`golem studio: ${info.where} failed (ref ${info.ref}): ${failureText(error, io.env)}`);
      },
    });
  } catch (error) {
    err(`golem studio: ${failureText(error, io.env)}`);
    await queue?.close();
    await store.close();
    return 2;
  }
  const http = createServer((req, res) => void studio.handle(req, res));
  let port: number;
  try {
    port = await listen(http, args.port, args.host);
  } catch (error) {
    err(
      `golem studio: cannot listen on ${args.host}:${String(args.port)}: ${failureText(error, io.env)}`,
    );
    await studio.close();
    await queue?.close();
    await store.close();
    return 2;
  }
  const until = io.until ?? stopSignal();
  const url = `http://${urlHost(args.host)}:${String(port)}/?token=${studio.token}`;
  out(`Golem Studio at ${url}`);
  io.onListening?.(url);
  await until;
  await studio.close();
  await close(http);
  await queue?.close();
  await store.close();
  return 0;
}

/** The bin's entry point. */
export function main(argv: readonly string[]): Promise<number> {
  return studioCommand(argv);
}
