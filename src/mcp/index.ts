/**
 * `golem/mcp`: the Model Context Protocol on both sides, on the official SDK (an optional peer).
 * Client: an MCP server's tools as agent tools, its resources and prompts, the client
 * capabilities (sampling with a golem model, elicitation, roots), progress and log notifications,
 * task tools, OAuth. Server: golem tools and agents served over stdio or Streamable HTTP.
 * @packageDocumentation
 */
export type {
  ConnectMcpOptions,
  McpTransportConfig,
  McpStdioTransport,
  McpHttpTransport,
  McpToolsOptions,
  McpToolsChangedEvent,
  McpToolRejectedEvent,
} from './options';
export type {
  McpLogLevel,
  McpLogEvent,
  McpResourceUpdatedEvent,
  McpListChangedEvent,
  McpRoot,
  McpSamplingRequest,
  McpSamplingOptions,
  McpElicitationRequest,
  McpElicitationAnswer,
  McpElicitationOptions,
} from './capability-types';
export { elicitationProblems } from './elicitation-schema';
export { mcpElicitationOf } from './elicitation-pause';
export { connectMcp, mcpTools } from './connect';
export type { McpServerInfo } from './session-types';
export { McpClient } from './client';
export type { McpToolDefinition, McpToolChange } from './definitions';
export type { McpToolOrigin } from './origin';
export { mcpToolOrigin } from './origin';
export type {
  McpResource,
  McpResourceTemplate,
  McpResourceContents,
  McpReadResourceOptions,
} from './resources';
export type { McpResourceSelection, McpResourceToolOptions } from './resource-exposure';
export type { McpPromptInfo, McpPrompt } from './prompts';
export type { McpStoredAuth, McpTokenStore, McpOAuthProviderOptions } from './auth';
export { mcpOAuthProvider, memoryTokenStore, completeMcpAuthorization } from './auth';
export { mergeTools } from './merge';
export { INHERITED_ENV } from './env';
export { McpTransportError } from './errors';
export { McpAuthorizationRequiredError } from './feature-errors';
export { MAX_REDIRECTS } from './redirects';
export { McpToolsChangedError } from './tool-errors';
export type { McpServeOptions, McpServedAgent, McpRequestInfo } from './server/serve-options';
export { createMcpServer, McpToolServer } from './server/mcp-server';
export type {
  McpStdioServing,
  McpHttpHandler,
  McpHttpHandlerOptions,
  McpHttpServing,
  McpHttpServeOptions,
} from './server/serve';
export { serveMcpStdio, serveMcpHttp, mcpHttpHandler } from './server/serve';
export type { McpStdoutReservation } from './server/stdout-guard';
export { reserveStdoutForMcp } from './server/stdout-guard';
