/* eslint-disable @typescript-eslint/no-deprecated -- the low-level SDK `Server` is deliberate: golem tools carry JSON Schemas, which McpServer's zod-based registration cannot take */
import type * as ServerModule from '@modelcontextprotocol/sdk/server/index.js';
import type * as StdioModule from '@modelcontextprotocol/sdk/server/stdio.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';
import type * as AjvModule from '@modelcontextprotocol/sdk/validation/ajv';
import { mcpSdkMissingError } from '../errors';
import { SDK_PACKAGE } from '../sdk';

/** The parts of `@modelcontextprotocol/sdk` the server side uses. */
export interface McpServerSdk {
  Server: typeof ServerModule.Server;
  StdioServerTransport: typeof StdioModule.StdioServerTransport;
  StreamableHTTPServerTransport: typeof HttpModule.StreamableHTTPServerTransport;
  ListToolsRequestSchema: typeof TypesModule.ListToolsRequestSchema;
  CallToolRequestSchema: typeof TypesModule.CallToolRequestSchema;
  isInitializeRequest: typeof TypesModule.isInitializeRequest;
  AjvJsonSchemaValidator: typeof AjvModule.AjvJsonSchemaValidator;
}

/** Loads the server side of the SDK lazily; a missing install is a `missing-peer` `ConfigError`. */
export function loadServerSdk(): McpServerSdk {
  try {
    /* eslint-disable @typescript-eslint/no-require-imports -- optional peer dependency, loaded only when serving */
    const server = require('@modelcontextprotocol/sdk/server/index.js') as typeof ServerModule;
    const stdio = require('@modelcontextprotocol/sdk/server/stdio.js') as typeof StdioModule;
    const http = require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof HttpModule;
    const types = require('@modelcontextprotocol/sdk/types.js') as typeof TypesModule;
    const ajv = require('@modelcontextprotocol/sdk/validation/ajv') as typeof AjvModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
    return {
      Server: server.Server,
      StdioServerTransport: stdio.StdioServerTransport,
      StreamableHTTPServerTransport: http.StreamableHTTPServerTransport,
      ListToolsRequestSchema: types.ListToolsRequestSchema,
      CallToolRequestSchema: types.CallToolRequestSchema,
      isInitializeRequest: types.isInitializeRequest,
      AjvJsonSchemaValidator: ajv.AjvJsonSchemaValidator,
    };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
      throw mcpSdkMissingError(SDK_PACKAGE, { cause: error });
    }
    throw error;
  }
}
