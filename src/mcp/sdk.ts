import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as AuthModule from '@modelcontextprotocol/sdk/client/auth.js';
import type * as StdioModule from '@modelcontextprotocol/sdk/client/stdio.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';
import { mcpSdkMissingError } from './errors';

/** The npm package of the official MCP SDK (an optional peer dependency of golem). */
export const SDK_PACKAGE = '@modelcontextprotocol/sdk';

/** The parts of `@modelcontextprotocol/sdk` the client uses. */
export interface McpSdk {
  Client: typeof ClientModule.Client;
  StdioClientTransport: typeof StdioModule.StdioClientTransport;
  StreamableHTTPClientTransport: typeof HttpModule.StreamableHTTPClientTransport;
  StreamableHTTPError: typeof HttpModule.StreamableHTTPError;
  UnauthorizedError: typeof AuthModule.UnauthorizedError;
  McpError: typeof TypesModule.McpError;
  ToolListChangedNotificationSchema: typeof TypesModule.ToolListChangedNotificationSchema;
  ResourceListChangedNotificationSchema: typeof TypesModule.ResourceListChangedNotificationSchema;
  ResourceUpdatedNotificationSchema: typeof TypesModule.ResourceUpdatedNotificationSchema;
  PromptListChangedNotificationSchema: typeof TypesModule.PromptListChangedNotificationSchema;
  LoggingMessageNotificationSchema: typeof TypesModule.LoggingMessageNotificationSchema;
  ProgressNotificationSchema: typeof TypesModule.ProgressNotificationSchema;
  CreateMessageRequestSchema: typeof TypesModule.CreateMessageRequestSchema;
  ElicitRequestSchema: typeof TypesModule.ElicitRequestSchema;
  ListRootsRequestSchema: typeof TypesModule.ListRootsRequestSchema;
  CallToolResultSchema: typeof TypesModule.CallToolResultSchema;
  CreateTaskResultSchema: typeof TypesModule.CreateTaskResultSchema;
  /** A page of a listing, its items unchecked (`tools/list` checks each tool on its own). */
  PaginatedResultSchema: typeof TypesModule.PaginatedResultSchema;
  ToolSchema: typeof TypesModule.ToolSchema;
}

/** Loads the SDK; inject one to bundle it differently or to test a missing install. */
export type McpSdkLoader = () => McpSdk;

/** The default loader: lazy `require`s, so golem loads without the optional peer installed. */
export const requireMcpSdk: McpSdkLoader = () => {
  /* eslint-disable @typescript-eslint/no-require-imports -- optional peer dependency, loaded only when a client connects */
  const client = require('@modelcontextprotocol/sdk/client/index.js') as typeof ClientModule;
  const auth = require('@modelcontextprotocol/sdk/client/auth.js') as typeof AuthModule;
  const stdio = require('@modelcontextprotocol/sdk/client/stdio.js') as typeof StdioModule;
  const http = require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof HttpModule;
  const types = require('@modelcontextprotocol/sdk/types.js') as typeof TypesModule;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    UnauthorizedError: auth.UnauthorizedError,
    McpError: types.McpError,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    ResourceListChangedNotificationSchema: types.ResourceListChangedNotificationSchema,
    ResourceUpdatedNotificationSchema: types.ResourceUpdatedNotificationSchema,
    PromptListChangedNotificationSchema: types.PromptListChangedNotificationSchema,
    LoggingMessageNotificationSchema: types.LoggingMessageNotificationSchema,
    ProgressNotificationSchema: types.ProgressNotificationSchema,
    CreateMessageRequestSchema: types.CreateMessageRequestSchema,
    ElicitRequestSchema: types.ElicitRequestSchema,
    ListRootsRequestSchema: types.ListRootsRequestSchema,
    CallToolResultSchema: types.CallToolResultSchema,
    CreateTaskResultSchema: types.CreateTaskResultSchema,
    PaginatedResultSchema: types.PaginatedResultSchema,
    ToolSchema: types.ToolSchema,
  };
};

/**
 * Runs `loader` and returns the SDK. A missing module becomes a `missing-peer` `ConfigError` naming
 * the package to install; any other failure propagates unchanged.
 */
export function loadMcpSdk(loader: McpSdkLoader = requireMcpSdk): McpSdk {
  try {
    return loader();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
      throw mcpSdkMissingError(SDK_PACKAGE, { cause: error });
    }
    throw error;
  }
}
