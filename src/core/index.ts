/**
 * Golem: dependable AI agents for TypeScript. The engine, the model and tool contracts, and the
 * output decoders. Decorators live in `golem/decorators`, the container in `golem/container`,
 * test doubles in `golem/testing`.
 * @packageDocumentation
 */
// Each value is re-exported from the module that defines it (not through the model/, tool/,
// output/, engine/ and durable/ barrels) and the types come from ./public-types, so importing
// golem reads only the modules that hold its public values and what building an agent needs; the
// run loop, streaming, stored runs and deferred resumes load on first use (agent-lazy.ts).
// test/src/lazy-subsystems.test.ts keeps it so.
export type * from './public-types';

// The agent.
export { Agent } from './agent/agent';

// Messages, parts, models, usage and model errors.
export {
  ROLES,
  systemMessage,
  userMessage,
  assistantMessage,
  toolResultMessage,
  cloneMessage,
} from './contract/message';
export {
  imageUrl,
  imageData,
  documentData,
  documentUrl,
  textDocument,
  audioData,
  audioUrl,
  partProblem,
} from './contract/part';
export {
  DOCUMENT_MEDIA_TYPES,
  AUDIO_MEDIA_TYPES,
  MAX_PART_BYTES,
  mediaEssence,
} from './contract/part-media';
export { UnsupportedPartError, describePart } from './contract/unsupported';
export {
  webSearchTool,
  fileSearchTool,
  codeInterpreterTool,
  hostedToolProblem,
} from './contract/hosted-tool';
export {
  thinkingText,
  signedThinking,
  redactedThinking,
  thinkingProblem,
} from './contract/thinking';
export { emptyUsage, addUsage, usageOf, USAGE_DETAILS } from './contract/usage';
export { priceTable, costOf, addCost, checkPrice } from './contract/cost';
export { modelRef } from './contract/model-name';
export { MAX_CACHE_BREAKPOINTS, resolveCache, planBreakpoints } from './contract/cache';
export { isStreamingModel } from './contract/model';
export { GolemError, hasKind, describeError, showValue } from './kit/error-base';
export { ConfigError, type ConfigComponent, type ConfigErrorReason } from './kit/config-error';
export { checkPeers } from './kit/missing-peer';
export { errorChain, findError } from './kit/error-chain';
export {
  CancelledError,
  DeadlineExceededError,
  isCancellation,
  isDeadlineExceeded,
  cancellationError,
  throwIfCancelled,
} from './errors/cancellation';
export {
  ModelRetry,
  ModelHTTPError,
  isRetryable,
  isRetryableStatus,
  retryAfterOf,
} from './errors/errors';
export { parseUntrustedJson, isValidJson } from './kit/safe-json';
export { isArrayValue, isRecord } from './kit/guards';
export { HistoryFormatError } from './errors/history-error';
export {
  encodeMessages,
  encodeMessage,
  decodeMessages,
  parseHistory,
  ARGS_MAX_DEPTH,
  HISTORY_DEFAULT_LIMITS,
} from './codec/codec';
export { RawJson, parseJsonWithRaw, compactJson } from './kit/raw-json';
export { FallbackModel } from './engine/fallback';
export { MAX_TIMEOUT_MS, timeoutProblem } from './kit/timeouts';

// Tools.
export { toolSpec } from './tool/tool';
export { defineTool } from './tool/define-tool';
export { Deferred, requireApproval, deferExternal } from './tool/errors';
export { renderToolResult } from './tool/tool-result';
export { isStandardSchema } from './tool/standard-schema';
export { jsonSchemaOf } from './tool/standard-json-schema';
export { validateWithSchema, issuesText } from './tool/standard-issues';

// Output decoders.
export { decodeText } from './output/decode-text';
export { decodeJSON } from './output/decode-json';
export { schemaOutput, DEFAULT_OUTPUT_TOOL_NAME } from './output/schema-output';
export { parsePartialJson } from './output/partial-json';

// Runs: errors, limits, history, retries, guardrails.
export { verdict, GuardrailError } from './engine/guardrails';
export { RUN_STAGES, RunError, ToolError, RunInputError } from './engine/errors';
export { UsageLimitError, crossedLimit } from './engine/usage-limit';
export { trimHistory } from './engine/history-processor';
export {
  repairHistory,
  unansweredCalls,
  historyFromPartial,
  INTERRUPTED_RESULT,
} from './engine/repair';
export { defaultBackoff, timerSleep, DEFAULT_MAX_RETRY_WAIT_MS } from './engine/retry';

// Durable runs: stored records, their errors and queries.
export { RUN_STATUSES, decodeRun, decodeConversation } from './durable/records';
export { StoreError } from './durable/store-error';
export { DEFAULT_LEASE_MS } from './durable/store-options';
export { loadRun, loadConversation, listRuns } from './durable/queries';
export { INTERRUPTED_CALL_REASON } from './durable/interrupted-call';
