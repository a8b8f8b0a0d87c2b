/**
 * `golem mcp serve <module> <ExportName> [--http] …`: serves an exported @Agent class (its @Tool
 * methods and the agent itself), a Tool, Tools or an Agent as an MCP server over stdio or
 * Streamable HTTP. The bin (`bin/golem.js`) calls {@link main}; tests call {@link mcpCommand}.
 */
import '../peers';
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import type { ServiceIdentifier } from 'inversify';
import { resolve } from 'node:path';
import type { Tool } from '../../src/core/index';
import { ConfigError } from '../../src/core/index';
import {
  createMcpServer,
  reserveStdoutForMcp,
  serveMcpHttp,
  serveMcpStdio,
  type McpServedAgent,
  type McpStdoutReservation,
} from '../../src/mcp/index';
import { isModuleNotFound } from '../../src/core/kit/missing-peer';
import { UsageError } from '../../decorators/cli/args';
import { classTools, compileAgentClass, snakeCase } from '../../decorators/index';
import { loadDeps, NO_DEPS_HINT, type LoadedDeps } from './deps';
import { failureText } from './failure';
import { defaultRunLoader, findAgent, isAgentClass } from './load-agent';
import { MCP_USAGE, parseMcpArgs, type McpServeArgs } from './mcp-args';
import { prepare, type RunIO } from './run';
import { stopSignal } from './stop-signal';

/** Where the command writes and how it loads; plus `until`, which ends serving (tests). */
export interface McpIO extends RunIO {
  /** Resolves when serving should stop; default: SIGINT/SIGTERM (or, over stdio, stdin ending). */
  until?: Promise<void>;
  /** Receives the HTTP endpoint once listening. */
  onListening?: (url: string) => void;
  /**
   * Loads the server side of the MCP SDK (an optional peer dependency), throwing when it is not
   * installed; default `require`. Tests simulate a missing install with it.
   */
  loadSdk?: () => unknown;
}

/** The MCP SDK: an optional peer dependency of golem, needed to serve. */
const SDK = '@modelcontextprotocol/sdk';

/** Loads the SDK's server entry, as `createMcpServer` does; throws when it is not installed. */
function requireServerSdk(): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer, checked before serving
  return require('@modelcontextprotocol/sdk/server/index.js');
}

/** Whether `error` says the SDK is not installed (a failed load, or golem's `missing-peer`). */
function isSdkMissing(error: unknown): boolean {
  if (ConfigError.is(error, undefined, 'missing-peer'))
    return error.packages?.includes(SDK) ?? false;
  if (!isModuleNotFound(error)) return false;
  const message: unknown = (error as { message?: unknown }).message;
  return typeof message === 'string' && message.includes(`'${SDK}`);
}

type Served = { tools: Tool[]; agents: McpServedAgent<unknown>[]; name: string };

function isTool(value: unknown): value is Tool {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Tool).execute === 'function' &&
    typeof (value as Tool).name === 'string'
  );
}

/** What the export serves. */
function servedFrom(loaded: unknown, args: McpServeArgs, file: string, io: RunIO): Served {
  const found = findAgent(loaded, args.exportName, file);
  const value: unknown = found.agent;
  if (isAgentClass(value)) {
    const prepared = prepare(found, { model: args.model }, io);
    const className = compileAgentClass(value).className;
    const instance = prepared.container.get(found.agent as ServiceIdentifier<object>);
    return {
      name: className,
      tools: args.expose === 'agent' ? [] : classTools(instance),
      agents:
        args.expose === 'tools'
          ? []
          : [
              {
                agent: prepared.agent,
                name: snakeCase(className),
                description: `Ask the ${className} agent; give it the whole request as the prompt.`,
              },
            ],
    };
  }
  if (isTool(value)) return { name: args.exportName, tools: [value], agents: [] };
  if (Array.isArray(value) && value.length > 0 && value.every(isTool))
    return { name: args.exportName, tools: value, agents: [] };
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { asTool?: unknown }).asTool === 'function'
  ) {
    return {
      name: args.exportName,
      tools: [],
      agents: [
        {
          agent: value as never,
          name: snakeCase(args.exportName),
          description: `Ask the ${args.exportName} agent.`,
        },
      ],
    };
  }
  throw new UsageError(
    `${args.exportName} is not an @Agent class, a Tool, an array of Tools or an Agent; export one of those under the name you serve`,
  );
}

/** Runs `golem mcp` with `argv` (after `mcp`) and returns the exit code once serving ends. */
export async function mcpCommand(argv: readonly string[], io: McpIO = {}): Promise<number> {
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  let args: McpServeArgs;
  try {
    args = parseMcpArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`golem mcp: ${error.message}`);
    err(MCP_USAGE);
    return 2;
  }
  if (args.help) {
    out(MCP_USAGE);
    return 0;
  }
  try {
    (io.loadSdk ?? requireServerSdk)();
  } catch (error) {
    if (!isSdkMissing(error)) throw error;
    err(
      `golem mcp: serving needs ${SDK}, an optional peer dependency of golem that is not installed: npm install ${SDK}`,
    );
    return 2;
  }
  const file = resolve(io.cwd ?? process.cwd(), args.module);
  if (!existsSync(file)) {
    err(`golem mcp: no such file: ${file}; give the path of the module that exports what to serve`);
    return 2;
  }
  // Over stdio, stdout is the protocol's from here on: whatever the served module writes there —
  // while it loads or from a tool (console.log) — goes to stderr instead.
  const reservation = args.http ? undefined : reserveStdoutForMcp();
  try {
    return await serve(file, args, io, out, err, reservation);
  } finally {
    reservation?.release();
  }
}

async function serve(
  file: string,
  args: McpServeArgs,
  io: McpIO,
  out: (line: string) => void,
  err: (line: string) => void,
  reservation: McpStdoutReservation | undefined,
): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const env = io.env ?? process.env;
  const load = io.load ?? defaultRunLoader(cwd);
  let served: Served;
  let deps: LoadedDeps;
  try {
    const loaded = await load(file);
    served = servedFrom(loaded, args, file, io);
    deps = await loadDeps(args.deps, cwd, load);
  } catch (error) {
    err(`golem mcp: ${failureText(error, env)}`);
    return 2;
  }
  let hinted = false;
  const server = createMcpServer<unknown>({
    name: served.name,
    tools: served.tools,
    agents: served.agents,
    ...deps,
    // The client gets the opaque `tool <name> failed`; the operator reads why here.
    onError: (error, toolName) => {
      err(`golem mcp: tool ${toolName} failed: ${failureText(error, env)}`);
      if (args.deps === undefined && !hinted) {
        hinted = true;
        err(`golem mcp: ${NO_DEPS_HINT}`);
      }
    },
  });
  const names = server.tools.map((t) => t.name).join(', ');
  const until = io.until ?? stopSignal();
  if (args.http) {
    const serving = await serveMcpHttp(server, { port: args.port, host: args.host });
    out(`serving ${names} at ${serving.url}`);
    io.onListening?.(serving.url);
    await until;
    await serving.close();
    return 0;
  }
  err(`golem mcp: serving ${names} over stdio`);
  const serving = await serveMcpStdio(
    server,
    reservation === undefined ? {} : { stdout: reservation.protocol },
  );
  await Promise.race([until, serving.closed]);
  await serving.close();
  return 0;
}

/** The bin's entry point. */
export function main(argv: readonly string[]): Promise<number> {
  return mcpCommand(argv);
}
