/**
 * Golem: dependable AI agents for TypeScript. The engine, the model and tool contracts, and the
 * output decoders. Decorators live in `golem/decorators`, the container in `golem/container`,
 * test doubles in `golem/testing`.
 * @packageDocumentation
 */
// The one list of `golem`'s public names (ADR 0005 and 0007: at most 160; scripts/check/public-surface.mjs
// counts them). Each name is re-exported from the module that defines it, values and their types
// side by side, so `require('golem')` reads only the modules that hold public values; the run
// loop, streaming, stored runs and resumes load on first use (src/core/agent/lazy.ts, kept so by
// test/src/core/lazy-subsystems.test.ts). A name added past the budget takes the place of one.

// Agent.
export { Agent } from './agent/agent';
export { trimHistory, type HistoryProcessor } from './engine/history-processor';
export type {
  AgentConfig,
  RunOptions,
  StreamOptions,
  ResumeOptions,
  ContinueOptions,
} from './agent/config';
export type { RunStream } from './agent/stream';
export type { RunResult } from './engine/result';
export type { RunState } from './engine/run-state';
export type { RunContext, Instructions } from './engine/instructions';
export type { UsageLimit } from './engine/usage-limit';

// Context compaction and memory.
export type { Compaction, CompactionOptions, CompactionPolicy } from './engine/compaction';
export type { AgentMemory } from './agent/memory-port';

// Guardrails.
export {
  verdict,
  type Guardrails,
  type InputGuardrail,
  type OutputGuardrail,
  type ToolGuardrail,
  type GuardrailContext,
  type GuardrailInput,
  type GuardrailToolCall,
  type GuardrailResult,
} from './engine/guardrails';

// Deferred tools.
export { requireApproval, deferExternal } from './tool/errors';
export { INTERRUPTED_CALL_REASON } from './durable/interrupted-call';
export type {
  PendingToolCall,
  PendingToolCalls,
  Approval,
  DeferredResults,
} from './engine/deferred-types';

// Durable runs.
export { loadRun, loadConversation, listRuns } from './durable/queries';
export type {
  RunStore,
  RunFilter,
  StoreTransaction,
  WriteOptions,
  MigrationReport,
  ConversationFilter,
} from './durable/port';
export type {
  RunRecord,
  ConversationRecord,
  RunStatus,
  StoredRun,
  StoredConversation,
  StoredWorkingMemory,
} from './durable/records';

// Instrumentation port.
export type {
  RunInstrumentation,
  RunStartInfo,
  RunTrace,
  RunOutcome,
  TraceScope,
} from './engine/instrumentation';

// Prices.
export {
  priceTable,
  type PriceTable,
  type ModelPrice,
  type PriceLookup,
  type Cost,
} from './contract/cost';

// Tools.
export {
  defineTool,
  type ToolDefinition,
  type JsonSchemaToolDefinition,
  type SchemaToolDefinition,
} from './tool/define-tool';
export { jsonSchemaOf } from './tool/standard-json-schema';
export type { Tool } from './tool/tool';
export type { ToolContext } from './tool/context';
export type { StandardSchemaV1 } from './tool/standard-schema';

// Model contract.
export {
  isStreamingModel,
  type Model,
  type StreamingModel,
  type GenerateOptions,
  type DeltaHandler,
} from './contract/model';
export type { ModelRequest, ModelSettings, ToolSpec } from './contract/request';
export type { ModelResponse } from './contract/response';
export type { Delta } from './contract/delta';
export type { Usage } from './contract/usage';
export type { JsonValue, JsonSchema } from './kit/json';
export type { FetchLike } from './contract/fetch';
export type { EmbeddingModel, RerankModel } from './contract/embedding';

// Messages and parts.
export {
  imageUrl,
  imageData,
  documentUrl,
  documentData,
  textDocument,
  audioUrl,
  audioData,
  type Part,
} from './contract/part';
export {
  thinkingText,
  signedThinking,
  redactedThinking,
  type ThinkingBlock,
} from './contract/thinking';
export type { Role, Message, ToolCall } from './contract/message';
export type { Citation, HostedToolCall } from './contract/evidence';

// Hosted tools.
export {
  webSearchTool,
  fileSearchTool,
  codeInterpreterTool,
  type HostedTool,
} from './contract/hosted-tool';

// Model composition.
export { FallbackModel, type FallbackOptions } from './engine/fallback';
export type { Middleware } from './engine/middleware';
export { wrapModel } from './engine/middleware-chain';

// Results.
export { historyFromPartial, repairHistory } from './engine/repair';
export { addUsage, emptyUsage } from './contract/usage';
export type { Result, CompletedResult, PausedResult } from './engine/result';
export type { PartialEvidence, RunStage } from './engine/errors';
export type { DeepPartial } from './engine/partial-output';

// Events.
export type { RunEvent, RunEventKind, RunObserver } from './engine/events';
export type { RunStreamEvent } from './engine/stream-event-types';

// Output decoders.
export { decodeText } from './output/decode-text';
export { decodeJSON } from './output/decode-json';
export { schemaOutput } from './output/schema-output';
export type { OutputDecoder, DecodeContext } from './output/decoder';

// Error classes.
export { GolemError } from './kit/error-base';
export { ConfigError } from './kit/config-error';
export { RunError, RunInputError, ToolError } from './engine/errors';
export { GuardrailError } from './engine/guardrails';
export { UsageLimitError } from './engine/usage-limit';
export { ModelRetry, ModelHTTPError } from './errors/errors';
export { Deferred } from './tool/errors';
export { UnsupportedPartError } from './contract/unsupported';
export { CancelledError, DeadlineExceededError } from './errors/cancellation';
export { HistoryFormatError } from './errors/history-error';
export { StoreError } from './durable/store-error';

// Error helpers and types.
export { hasKind } from './kit/error-base';
export { describeError } from './kit/safe-inspect';
export { errorChain, findError } from './kit/error-chain';
export { isRetryable, retryAfterOf } from './errors/errors';
export { isCancellation, isDeadlineExceeded, throwIfCancelled } from './errors/cancellation';
export type { ConfigComponent, ConfigErrorReason } from './kit/config-error';

// Codec.
export { encodeMessages, encodeMessage, decodeMessages, parseHistory } from './codec/codec';

// Testing hooks.
export { defaultBackoff, type Sleep, type Backoff } from './engine/retry';
