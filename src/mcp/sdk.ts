import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as StdioModule from '@modelcontextprotocol/sdk/client/stdio.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';
import { McpSdkMissingError } from './errors';

/** The npm package of the official MCP SDK (an optional peer dependency of golem). */
export const SDK_PACKAGE = '@modelcontextprotocol/sdk';

/** The parts of `@modelcontextprotocol/sdk` the bridge uses. */
export interface McpSdk {
  Client: typeof ClientModule.Client;
  StdioClientTransport: typeof StdioModule.StdioClientTransport;
  StreamableHTTPClientTransport: typeof HttpModule.StreamableHTTPClientTransport;
  StreamableHTTPError: typeof HttpModule.StreamableHTTPError;
  McpError: typeof TypesModule.McpError;
  ToolListChangedNotificationSchema: typeof TypesModule.ToolListChangedNotificationSchema;
}

/** Loads the SDK; inject one to bundle it differently or to test a missing install. */
export type McpSdkLoader = () => McpSdk;

/** The default loader: lazy `require`s, so golem loads without the optional peer installed. */
export const requireMcpSdk: McpSdkLoader = () => {
  /* eslint-disable @typescript-eslint/no-require-imports -- optional peer dependency, loaded only when a client connects */
  const client = require('@modelcontextprotocol/sdk/client/index.js') as typeof ClientModule;
  const stdio = require('@modelcontextprotocol/sdk/client/stdio.js') as typeof StdioModule;
  const http = require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof HttpModule;
  const types = require('@modelcontextprotocol/sdk/types.js') as typeof TypesModule;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    McpError: types.McpError,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
  };
};

/**
 * Runs `loader` and returns the SDK. A missing module becomes a {@link McpSdkMissingError} naming
 * the package to install; any other failure propagates unchanged.
 */
export function loadMcpSdk(loader: McpSdkLoader = requireMcpSdk): McpSdk {
  try {
    return loader();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
      throw new McpSdkMissingError(SDK_PACKAGE, { cause: error });
    }
    throw error;
  }
}
