/** The MCP client bridge (`golem/mcp`): an MCP server's tools as agent tools. */
export type {
  ConnectMcpOptions,
  McpTransportConfig,
  McpStdioTransport,
  McpHttpTransport,
  McpToolsOptions,
  McpToolsChangedEvent,
} from './options';
export {
  DEFAULT_CONNECT_TIMEOUT,
  DEFAULT_CALL_TIMEOUT,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_RESULT_BYTES,
} from './options';
export { connectMcp, mcpTools } from './connect';
export type { McpServerInfo } from './client';
export { McpClient } from './client';
export type { McpToolDefinition, McpToolChange } from './definitions';
export type { McpToolOrigin } from './bridge';
export { mcpToolOrigin } from './bridge';
export { mergeTools } from './merge';
export { INHERITED_ENV } from './env';
export { SDK_PACKAGE } from './sdk';
export {
  McpConfigError,
  McpSdkMissingError,
  McpProtocolError,
  McpTransportError,
  McpRedirectError,
} from './errors';
export { MAX_REDIRECTS } from './redirects';
export {
  McpToolDefinitionError,
  McpToolsChangedError,
  McpToolChangedError,
  McpToolCollisionError,
} from './tool-errors';
