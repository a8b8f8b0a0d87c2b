export type { RunStage, PartialEvidence } from './errors';
export {
  RUN_STAGES,
  RunError,
  ToolError,
  UndeclaredToolError,
  TurnLimitError,
  AttemptsExhaustedError,
  RunInputError,
} from './errors';
export type { UsageLimit, UsageLimitKind, UsageCounters } from './usage-limit';
export { UsageLimitError, crossedLimit } from './usage-limit';
export type { RunEvent, RunEventKind, RunObserver } from './events';
export type { HistoryProcessor, HistoryProcessorContext } from './history-processor';
export { trimHistory } from './history-processor';
export type { RunContext, Instructions, InstructionsFunction } from './instructions';
export { repairHistory, unansweredCalls, historyFromPartial, INTERRUPTED_RESULT } from './repair';
export type { Backoff, Sleep } from './retry';
export { defaultBackoff, timerSleep, DEFAULT_MAX_RETRY_WAIT_MS } from './retry';
export type { RetryAfterTooLongInit } from './retry-after-error';
export { RetryAfterTooLongError } from './retry-after-error';
export { TurnTimeoutError } from './turn-deadline';
export type { OutputToolConfig } from './run-config';
export type { Result, CompletedResult, PausedResult, RunResult, RunCost } from './result';
export type {
  RunInstrumentation,
  RunTrace,
  RunStartInfo,
  RunOutcome,
  TraceScope,
} from './instrumentation';
export type {
  PendingToolCall,
  PendingToolCalls,
  Approval,
  DeferredResults,
} from './deferred-types';
export { StreamAbandonedError } from './delta-stream';
export type {
  RunStreamEvent,
  RunStreamEventType,
  TurnStartEvent,
  TurnDiscardedEvent,
  TextDeltaEvent,
  ThinkingDeltaEvent,
  ToolCallStartEvent,
  ToolCallDeltaEvent,
  ToolCallEndEvent,
  TurnEndEvent,
  ToolResultEvent,
  ToolErrorEvent,
  CorrectionEvent,
  DeferredEvent,
  FinishEvent,
  RunErrorEvent,
} from './stream-event-types';
export type { DeepPartial } from './partial-output';
export type {
  GuardrailPhase,
  GuardrailVerdict,
  GuardrailResult,
  GuardrailContext,
  GuardrailInput,
  GuardrailToolCall,
  GuardrailCheck,
  InputGuardrail,
  OutputGuardrail,
  ToolGuardrail,
  Guardrails,
} from './guardrails';
export { verdict, GuardrailError } from './guardrails';
