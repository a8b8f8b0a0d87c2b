/**
 * The error classes that are not exported from any entry point (ADR 0005, Appendix C): each
 * keeps its class, kind, fields and message; callers reach it with `hasKind(e, 'Name')`. Tests
 * import them from here, from the module that defines them.
 */
export {
  UndeclaredToolError,
  TurnLimitError,
  AttemptsExhaustedError,
} from '../../src/core/engine/errors';
export { TurnTimeoutError } from '../../src/core/engine/turn-deadline';
export { StreamAbandonedError } from '../../src/core/engine/delta-stream';
export { RetryAfterTooLongError } from '../../src/core/engine/retry-after-error';
export { DelegationError } from '../../src/core/agent/as-tool';
export { FallbackExhaustedError } from '../../src/core/engine/fallback';
export { ToolResultError } from '../../src/core/tool/errors';
export { JsonParseError } from '../../src/core/kit/json-parse-error';
export { UnsafeJsonError } from '../../src/core/kit/safe-json';
export { UnsupportedHostedToolError } from '../../src/core/contract/unsupported';
export { ModelResponseError } from '../../src/core/errors/errors';
export {
  ModelTransportError,
  StreamInterruptedError,
  ModelProtocolError,
  ModelRedirectError,
  ResponseTooLargeError,
} from '../../src/core/errors/provider-errors';
export { SseLineTooLongError } from '../../src/providers/shared/sse';
export { StrictSchemaError } from '../../src/providers/openai/strict-schema';
export { ResponseFailedError } from '../../src/providers/openai-responses/errors';
export { RedactedCause } from '../../src/core/kit/redact';
export {
  CommandDeniedError,
  CommandTimeoutError,
  CommandStartError,
} from '../../src/tools/shell/errors';
export {
  PathOutsideRootError,
  UnsupportedContentError,
  FileReadError,
} from '../../src/tools/fileread/errors';
export {
  StatusError,
  UnsupportedContentTypeError,
  UnsupportedContentEncodingError,
  BlockedDestinationError,
  TooManyRedirectsError,
  WebFetchError,
} from '../../src/tools/webfetch/errors';
export { InvalidSkillError, UnsupportedSkillFileError } from '../../src/tools/skills/errors';
export {
  ReplayMismatchError,
  ReplayUnmatchedError,
  FixtureFormatError,
  FixtureSecretError,
} from '../../src/testing/record-replay/errors';
export { SchemaSampleError } from '../../src/testing/schema-sample-error';
export { McpToolDefinitionError, McpToolChangedError } from '../../src/mcp/tool-errors';
export { McpTaskError, McpResourceTooLargeError } from '../../src/mcp/feature-errors';
export { McpProtocolError, McpRedirectError, McpCapabilityError } from '../../src/mcp/errors';
export { ShutdownError } from '../../nestjs/errors';
