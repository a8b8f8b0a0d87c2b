/**
 * Golem: dependable AI agents for TypeScript. The engine, the model and tool contracts, and the
 * output decoders. Decorators live in `golem/decorators`, the container in `golem/container`,
 * test doubles in `golem/testing`.
 * @packageDocumentation
 */
export { Agent } from './agent';
export type { RunStream } from './agent';
export type { AgentConfig, RunOptions, RunOptionsBase, StreamOptions, ResumeOptions } from './agent-config';

export type {
  Role,
  Message,
  ToolCall,
  Part,
  PartKind,
  ThinkingBlock,
  Usage,
  JsonValue,
  JsonObject,
  JsonSchema,
  ToolSpec,
  ModelSettings,
  ThinkingSettings,
  ModelRequest,
  ModelResponse,
  Delta,
  ToolCallDelta,
  ThinkingDelta,
  Model,
  StreamingModel,
  GenerateOptions,
  DeltaHandler,
  ModelHTTPErrorInit,
  JsonLimits,
} from './model/index';
export {
  ROLES,
  systemMessage,
  userMessage,
  assistantMessage,
  toolResultMessage,
  cloneMessage,
  imageUrl,
  imageData,
  partProblem,
  thinkingText,
  signedThinking,
  redactedThinking,
  thinkingProblem,
  emptyUsage,
  addUsage,
  isStreamingModel,
  GolemError,
  describeError,
  errorChain,
  findError,
  CancelledError,
  DeadlineExceededError,
  isCancellation,
  isDeadlineExceeded,
  cancellationError,
  throwIfCancelled,
  ModelRetry,
  ModelHTTPError,
  ModelResponseError,
  isRetryable,
  isRetryableStatus,
  retryAfterOf,
  UnsafeJsonError,
  parseUntrustedJson,
  isValidJson,
} from './model/index';

export type { Tool, ApprovalPolicy, ToolContext, ToolDefinition, DeferralKind } from './tool/index';
export { toolSpec, defineTool, ToolDefinitionError, Deferred, requireApproval, deferExternal } from './tool/index';

export type { OutputDecoder, DecodeContext, OutputValidator } from './output/index';
export { decodeText, decodeJSON } from './output/index';

export type {
  RunStage,
  PartialEvidence,
  UsageLimit,
  UsageLimitKind,
  UsageCounters,
  RunEvent,
  RunEventKind,
  RunObserver,
  HistoryProcessor,
  HistoryProcessorContext,
  RunContext,
  Instructions,
  InstructionsFunction,
  Backoff,
  Sleep,
  OutputToolConfig,
  Result,
  CompletedResult,
  PausedResult,
  PendingToolCall,
  PendingToolCalls,
  Approval,
  DeferredResults,
} from './engine/index';
export {
  RUN_STAGES,
  RunError,
  ToolError,
  UndeclaredToolError,
  TurnLimitError,
  AttemptsExhaustedError,
  ConfigError,
  RunInputError,
  UsageLimitError,
  crossedLimit,
  trimHistory,
  repairHistory,
  unansweredCalls,
  INTERRUPTED_RESULT,
  defaultBackoff,
  timerSleep,
  StreamAbandonedError,
} from './engine/index';
