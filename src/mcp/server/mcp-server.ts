/* eslint-disable @typescript-eslint/no-deprecated -- the low-level SDK `Server` is deliberate: golem tools carry JSON Schemas, which McpServer's zod-based registration cannot take */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { showValue } from '../../core/kit/error-base';
import { isRecord } from '../../core/kit/guards';
import type { ToolUpdate } from '../../core/tool/context';
import type { Tool } from '../../core/tool/tool';
import { mcpConfigError } from '../errors';
import { resolveTimeout } from '../option-checks';
import { DEFAULT_CALL_TIMEOUT } from '../options';
import type { McpRequestInfo, McpServeOptions } from './serve-options';
import { loadServerSdk, type McpServerSdk } from './server-sdk';
import { failure, runServedTool } from './tool-call';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Golem tools and agents as an MCP server (the SDK's low-level `Server`): `tools/list` advertises
 * each tool's name, description and JSON Schema; `tools/call` validates the arguments and runs the
 * tool under its deadline (the MCP server guide says how outcomes map to MCP results).
 * One definition serves many connections: {@link McpToolServer.connect} builds an SDK server per
 * transport (`serveMcpStdio` and `serveMcpHttp` do it for you).
 */
export class McpToolServer<Deps = undefined> {
  /** The tools served, in order (agents included, as tools taking a prompt). */
  readonly tools: readonly Tool<Deps>[];
  private readonly options: McpServeOptions<Deps>;
  private readonly sdk: McpServerSdk;
  private readonly timeout: number;
  private readonly validators = new Map<string, (args: unknown) => string | undefined>();
  /** Served agents with a run store: their tool scoped to a run owner, by tool name. */
  private readonly ownerScopes = new Map<string, (owner: string) => Tool<Deps>>();

  /** @internal Use {@link createMcpServer}. */
  constructor(options: McpServeOptions<Deps>) {
    const raw: unknown = options;
    if (!isRecord(raw)) throw mcpConfigError('options', 'must be an object { tools, agents, … }');
    const agents = (options.agents ?? []).map((entry, i) => {
      const agent: unknown = isRecord(entry) ? entry.agent : undefined;
      if (!isRecord(agent) || typeof agent.asTool !== 'function') {
        throw mcpConfigError(
          `agents[${i}]`,
          'must be { agent, name, description } with an agent that has asTool()',
        );
      }
      const tool = entry.agent.asTool(entry.name, entry.description);
      const { store } = entry.agent;
      if (store !== undefined && store !== null)
        this.ownerScopes.set(tool.name, (owner) =>
          entry.agent.asTool(entry.name, entry.description, { owner }),
        );
      return tool;
    });
    const tools: Tool<Deps>[] = [...(options.tools ?? []), ...agents];
    if (tools.length === 0)
      throw mcpConfigError('tools', 'and agents are empty: there is nothing to serve');
    const seen = new Set<string>();
    for (const tool of tools as unknown[]) {
      const name = isRecord(tool) ? tool.name : undefined;
      if (
        !isRecord(tool) ||
        typeof tool.execute !== 'function' ||
        typeof name !== 'string' ||
        !TOOL_NAME.test(name)
      ) {
        throw mcpConfigError(
          'tools',
          `holds something that is not a servable tool: ${showValue(name ?? tool)}`,
        );
      }
      if (seen.has(name))
        throw mcpConfigError('tools', `has two tools named ${JSON.stringify(name)}`);
      seen.add(name);
    }
    if (options.depsFor !== undefined && typeof options.depsFor !== 'function') {
      throw mcpConfigError('depsFor', 'must be a function of the request');
    }
    if (options.owner !== undefined) {
      if (typeof options.owner !== 'function') {
        throw mcpConfigError('owner', 'must be a function of the request');
      }
      if (this.ownerScopes.size === 0) {
        throw mcpConfigError(
          'owner',
          'is set, but no served agent has a run store: no run is stored, so none has an owner',
        );
      }
    }
    this.options = options;
    this.tools = tools;
    this.timeout = resolveTimeout('timeout', options.timeout, DEFAULT_CALL_TIMEOUT);
    this.sdk = loadServerSdk();
    if (options.validateInput !== false) {
      const ajv = new this.sdk.AjvJsonSchemaValidator();
      for (const tool of tools) this.validators.set(tool.name, compileValidator(ajv, tool));
    }
  }

  /** A new SDK server for one connection, with the tool handlers installed. */
  newServer(): Server {
    const { sdk, options } = this;
    const server = new sdk.Server(
      { name: options.name ?? 'golem', version: options.version ?? '0' },
      {
        capabilities: { tools: {}, logging: {} },
        ...(options.instructions !== undefined && { instructions: options.instructions }),
      },
    );
    server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({
      tools: this.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: objectSchema(tool.schema),
      })),
    }));
    server.setRequestHandler(sdk.CallToolRequestSchema, async (request, extra) => {
      const tool = this.tools.find((t) => t.name === request.params.name);
      if (tool === undefined) {
        return {
          content: [{ type: 'text', text: `unknown tool ${JSON.stringify(request.params.name)}` }],
          isError: true,
        };
      }
      const info: McpRequestInfo = {
        sessionId: extra.sessionId,
        headers: extra.requestInfo?.headers,
        authInfo: extra.authInfo,
      };
      const progressToken = extra._meta?.progressToken;
      const report = (update: ToolUpdate): void => {
        const notification =
          update.kind === 'progress'
            ? progressToken === undefined
              ? undefined
              : {
                  method: 'notifications/progress' as const,
                  params: {
                    progressToken,
                    progress: update.progress,
                    ...(update.total !== undefined && { total: update.total }),
                    ...(update.message !== undefined && { message: update.message }),
                  },
                }
            : {
                method: 'notifications/message' as const,
                params: {
                  level: update.level as 'info',
                  data: update.data,
                  ...(update.logger !== undefined && { logger: update.logger }),
                },
              };
        if (notification !== undefined) extra.sendNotification(notification).catch(() => undefined);
      };
      const { depsFor, owner } = options;
      const scope = this.ownerScopes.get(tool.name);
      const call = {
        deps:
          depsFor === undefined ? () => options.deps as Deps : () => depsFor.call(options, info),
        runner:
          owner === undefined || scope === undefined
            ? undefined
            : async () => {
                const who = await owner.call(options, info);
                return who === undefined ? tool : scope(who);
              },
        signal: extra.signal,
        callId: String(extra.requestId),
        timeout: this.timeout,
        validate: this.validators.get(tool.name),
        exposeErrors: options.exposeErrors === true,
        onError: options.onError,
        report,
      };
      try {
        return await runServedTool(tool, request.params.arguments, call);
      } catch (error) {
        // runServedTool answers every failure itself; this is the last line: whatever escapes
        // becomes the same hidden-by-default `isError` result, never a JSON-RPC error message.
        return failure(tool.name, error, call);
      }
    });
    return server;
  }

  /** Serves over `transport` (any SDK server transport); returns the SDK server, to `close()`. */
  async connect(transport: Transport): Promise<Server> {
    const server = this.newServer();
    await server.connect(transport);
    return server;
  }
}

/** Builds an {@link McpToolServer}: validates the options (an `mcp` `ConfigError`) and loads the SDK. */
export function createMcpServer<Deps = undefined>(
  options: McpServeOptions<Deps>,
): McpToolServer<Deps> {
  return new McpToolServer(options);
}

/** MCP requires an object input schema; anything else is wrapped as an open object. */
function objectSchema(schema: unknown): { type: 'object'; [key: string]: unknown } {
  return isRecord(schema) && schema.type === 'object'
    ? (schema as { type: 'object' })
    : { type: 'object' };
}

function compileValidator(
  ajv: {
    getValidator(
      schema: never,
    ): (input: unknown) => { valid: boolean; errorMessage?: string | undefined };
  },
  tool: Tool<never>,
): (args: unknown) => string | undefined {
  let check: (input: unknown) => { valid: boolean; errorMessage?: string | undefined };
  try {
    check = ajv.getValidator(objectSchema(tool.schema) as never);
  } catch {
    // A schema Ajv cannot compile is not checked here; the tool's own validation still runs.
    return () => undefined;
  }
  return (args) => {
    const result = check(args);
    return result.valid ? undefined : (result.errorMessage ?? 'they do not match the schema');
  };
}
