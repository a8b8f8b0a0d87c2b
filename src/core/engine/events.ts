import type { Cost } from '../contract/cost';
import type { Message, ToolCall } from '../contract/message';
import type { ModelRequest } from '../contract/request';
import type { Usage } from '../contract/usage';
import type { ToolUpdate } from '../tool/context';
import type { GuardrailCheck } from './guardrails';
import type { Compaction } from './compaction';

/**
 * A provider attempt is about to be sent.
 * @inline
 */
export interface ModelStartEvent {
  kind: 'model_start';
  /** 0-based model turn within the current loop execution (it restarts at 0 after a correction round). */
  turn: number;
  /** 1-based provider attempt of this turn (retries count up; a streamed turn is always 1). */
  attempt: number;
  /** The agent's model name (e.g. `openai:gpt-4o-mini` or `fallback(a, b)`), when it has one. */
  model?: string;
  /** The request sent (messages, tool specs, settings): the run's own object, read-only. */
  request: ModelRequest;
  /**
   * The request's estimated size in tokens: the provider-reported usage of the last turn plus an
   * estimate of the messages added since (see the context-compaction guide).
   */
  contextTokens?: number;
}

/**
 * A provider attempt answered (`model_end` with `message`).
 * @inline
 */
export interface ModelEndSucceeded {
  kind: 'model_end';
  /** As on `model_start`. */
  turn: number;
  /** As on `model_start`. */
  attempt: number;
  /** The agent's model name, when it has one. */
  model?: string;
  /** The usage of this attempt. */
  usage: Usage;
  /** The assistant message the model answered: the run's own object, read-only. */
  message: Message;
  /** The provider's response id, when it sent one. */
  responseId?: string;
  /** The model the provider says answered, when it says. */
  responseModel?: string;
  /** The provider's finish reason, when known. */
  finishReason?: string;
  /** What this attempt cost, when the agent has `prices` and the model is priced. */
  cost?: Cost;
  /** Absent: the attempt succeeded (lets `event.error !== undefined` tell a failure apart). */
  error?: undefined;
}

/**
 * A provider attempt failed (`model_end` with `error`).
 * @inline
 */
export interface ModelEndFailed {
  kind: 'model_end';
  /** As on `model_start`. */
  turn: number;
  /** As on `model_start`. */
  attempt: number;
  /** The agent's model name, when it has one. */
  model?: string;
  /** `{ inputTokens: 0, outputTokens: 0 }`: a failed attempt reports no usage. */
  usage: Usage;
  /** Why the attempt failed: the run's cancellation error when its signal was aborted. */
  error: unknown;
  /** Absent: the attempt has no answer (lets `event.message !== undefined` tell a success apart). */
  message?: undefined;
}

/**
 * After each provider attempt: {@link ModelEndSucceeded} (it has `message`) or
 * {@link ModelEndFailed} (it has `error`).
 * @inline
 */
export type ModelEndEvent = ModelEndSucceeded | ModelEndFailed;

/**
 * A `FallbackModel` member failed and the next one is tried, within the same attempt.
 * @inline
 */
export interface FallbackEvent {
  kind: 'fallback';
  /** The turn of the attempt. */
  turn: number;
  /** The attempt the members share. */
  attempt: number;
  /** The member that failed. */
  model: string;
  /** The member tried next. */
  nextModel: string;
  /** Why `model` failed. */
  error: unknown;
}

/**
 * A tool execution is about to start.
 * @inline
 */
export interface ToolStartEvent {
  kind: 'tool_start';
  /** The model turn that asked for the call (0 for an approved re-run on `resume`). */
  turn: number;
  /** The call's id, unique within the run. */
  callId: string;
  /** The name the model called. */
  toolName: string;
  /** The raw JSON text of the arguments. */
  args: string;
}

/**
 * A tool execution returned (`tool_end` with `result`).
 * @inline
 */
export interface ToolEndSucceeded {
  kind: 'tool_end';
  /** As on `tool_start`. */
  turn: number;
  /** As on `tool_start`. */
  callId: string;
  /** As on `tool_start`. */
  toolName: string;
  /** As on `tool_start`. */
  args: string;
  /** The text the tool returned (after the tool guardrails). */
  result: string;
  /** Absent: the execution succeeded. */
  error?: undefined;
}

/**
 * A tool execution failed (`tool_end` with `error`).
 * @inline
 */
export interface ToolEndFailed {
  kind: 'tool_end';
  /** As on `tool_start`. */
  turn: number;
  /** As on `tool_start`. */
  callId: string;
  /** As on `tool_start`. */
  toolName: string;
  /** As on `tool_start`. */
  args: string;
  /**
   * Why it failed: a `ModelRetry` for a rejection (fed back or not), a `DeadlineExceededError`
   * for a timeout, what the tool threw otherwise.
   */
  error: unknown;
  /** Absent: the execution has no result. */
  result?: undefined;
}

/**
 * After each tool execution: {@link ToolEndSucceeded} (it has `result`) or {@link ToolEndFailed}
 * (it has `error`).
 * @inline
 */
export type ToolEndEvent = ToolEndSucceeded | ToolEndFailed;

/**
 * A tool call deferred (it needs an approval or an external result): instead of `tool_end`.
 * @inline
 */
export interface DeferredEvent {
  kind: 'deferred';
  /** As on `tool_start`. */
  turn: number;
  /** As on `tool_start`. */
  callId: string;
  /** As on `tool_start`. */
  toolName: string;
  /** As on `tool_start`. */
  args: string;
}

/**
 * On `resume`, a pending call resolved without running: an approval refused, or an external
 * result supplied. Reported before the resumed run's first `model_start`.
 * @inline
 */
export interface ToolResolvedEvent {
  kind: 'tool_resolved';
  /** Always 0: like an approved re-run's `tool_start`, before the resumed run's first turn. */
  turn: number;
  /** The call's id. */
  callId: string;
  /** The name the model called. */
  toolName: string;
  /** The raw JSON text of the arguments. */
  args: string;
  /** The text the model sees for the call: the denial text, or the supplied result. */
  result: string;
  /** How the call was resolved: `denied` (an approval refused) or `external`. */
  resolution: 'denied' | 'external';
}

/**
 * A running tool reported progress through `ToolContext.report`.
 * @inline
 */
export interface ToolProgressEvent {
  kind: 'tool_progress';
  /** As on `tool_start`. */
  turn: number;
  /** The running call's id. */
  callId: string;
  /** The running call's tool. */
  toolName: string;
  /** A copy of what the tool reported. */
  update: Extract<ToolUpdate, { kind: 'progress' }>;
}

/**
 * A running tool reported a log line through `ToolContext.report`.
 * @inline
 */
export interface ToolLogEvent {
  kind: 'tool_log';
  /** As on `tool_start`. */
  turn: number;
  /** The running call's id. */
  callId: string;
  /** The running call's tool. */
  toolName: string;
  /** A copy of what the tool reported. */
  update: Extract<ToolUpdate, { kind: 'log' }>;
}

/**
 * A decoder (or an output guardrail set to retry) rejected the output: a correction round starts,
 * and turns restart at 0.
 * @inline
 */
export interface OutputRejectedEvent {
  kind: 'output_rejected';
  /** The number of the correction round that follows (1 for the first). */
  attempt: number;
  /** The `ModelRetry` that rejected the output. */
  error: unknown;
}

/**
 * An input or output guardrail decided (`guardrail` without `callId`).
 * @inline
 */
export interface RunGuardrailEvent {
  kind: 'guardrail';
  /** Which guardrail checked what (`phase`: `input` or `output`), and how it decided. */
  guardrail: GuardrailCheck;
  /** Absent: a run phase concerns no call. */
  callId?: undefined;
}

/**
 * A tool guardrail decided (`guardrail` with `callId`).
 * @inline
 */
export interface ToolGuardrailEvent {
  kind: 'guardrail';
  /** The model turn that asked for the call. */
  turn: number;
  /** The checked call's id. */
  callId: string;
  /** The checked call's tool. */
  toolName: string;
  /** Which guardrail checked what (`phase`: `tool_input` or `tool_output`), and how it decided. */
  guardrail: GuardrailCheck;
}

/**
 * The context was compacted before a model call (or, `policy: 'provider'`, the provider reports
 * it compacted on its side); `compaction` is the record the run's evidence keeps.
 * @inline
 */
export interface CompactionEvent {
  kind: 'compaction';
  /** The model turn of the run before which it happened (for `provider`: the turn it reported). */
  turn: number;
  /** What was compacted: policy, positions, tokens before and after. */
  compaction: Compaction;
}

/**
 * A completed run's messages could not be remembered by the agent's `memory` (its `remember`
 * failed). The run's result stands; the memory catches up on its next recall.
 * @inline
 */
export interface MemoryFailedEvent {
  kind: 'memory_failed';
  /** Why `remember` failed. */
  error: unknown;
}

/**
 * The run handed off: the model called the transfer tool of another agent, which continues the
 * run with its own instructions, tools and output (see the handoffs guide).
 * @inline
 */
export interface HandoffEvent {
  kind: 'handoff';
  /** The model turn (within the loop execution, like `model_end`'s) whose call handed off. */
  turn: number;
  /** The agent handing off. */
  from: string;
  /** The agent taking over. */
  to: string;
  /** The id of the transfer call. */
  callId: string;
  /** The transfer call (`transfer_to_<name>`): the run's own object, read-only. */
  call: ToolCall;
}

/**
 * After each guardrail check: {@link RunGuardrailEvent} (input, output) or
 * {@link ToolGuardrailEvent} (tool phases; it has `callId`).
 * @inline
 */
export type GuardrailEvent = RunGuardrailEvent | ToolGuardrailEvent;

/**
 * One observable step of a run, discriminated by `kind`: `switch (event.kind)` gives each kind's
 * own fields. `model_end` and `tool_end` are a success (`message`, `result`) or a failure
 * (`error`); `guardrail` concerns a call (`callId`) or the run. `turn` is on the kinds that
 * happen within a model turn (not on `output_rejected`, nor on an input or output `guardrail`);
 * `attempt` is on the model events (`model_start`, `model_end`, `fallback`) and numbers the
 * correction round on `output_rejected`. Advisory: `Result.messages` stays canonical. Events
 * carry the run's own objects (`request`, `message`): treat them as read-only. Their JSON form
 * (errors as text, without `request`) is what `golem/queue`'s feed carries.
 */
export type RunEvent =
  | ModelStartEvent
  | ModelEndSucceeded
  | ModelEndFailed
  | FallbackEvent
  | ToolStartEvent
  | ToolEndSucceeded
  | ToolEndFailed
  | DeferredEvent
  | ToolResolvedEvent
  | ToolProgressEvent
  | ToolLogEvent
  | OutputRejectedEvent
  | RunGuardrailEvent
  | ToolGuardrailEvent
  | CompactionEvent
  | MemoryFailedEvent
  | HandoffEvent;

/** What happened: the `kind` of a {@link RunEvent}. */
export type RunEventKind = RunEvent['kind'];

/** Receives run events synchronously; must not block. Exceptions are swallowed. */
export type RunObserver = (event: RunEvent) => void;

/** Delivers each event to every observer in order; an observer that throws never affects the run. */
export function emitEvent(observers: readonly RunObserver[], event: RunEvent): void {
  for (const observer of observers) {
    try {
      observer(event);
    } catch {
      // Observers are advisory (decision D8): their failures never change a run's outcome.
    }
  }
}
