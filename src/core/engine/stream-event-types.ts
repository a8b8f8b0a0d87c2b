import type { Message } from '../contract/message';
import type { Usage } from '../contract/usage';
import type { PendingToolCalls } from './deferred-types';
import type { RunError } from './errors';
import type { Result } from './result';

/** Where in the run an event happened: the 0-based model turn of this loop execution. */
interface StreamEventBase {
  /** 0-based model turn within the current loop execution (as `RunEvent.turn`). */
  turn: number;
}

/**
 * A model turn (one provider attempt) started streaming.
 * @inline
 */
export interface TurnStartEvent extends StreamEventBase {
  type: 'turn-start';
  /** 1-based provider attempt of this turn. */
  attempt: number;
}

/**
 * A streamed attempt failed and its fragments are void (a retry or a fallback member answers
 * next, with a new `turn-start`); renderers drop what they showed for this attempt.
 * @inline
 */
export interface TurnDiscardedEvent extends StreamEventBase {
  type: 'turn-discarded';
  attempt: number;
  error: unknown;
}

/**
 * A fragment of the answer's text.
 * @inline
 */
export interface TextDeltaEvent extends StreamEventBase {
  type: 'text-delta';
  text: string;
}

/**
 * A fragment of the model's reasoning.
 * @inline
 */
export interface ThinkingDeltaEvent extends StreamEventBase {
  type: 'thinking-delta';
  text: string;
}

/**
 * The model began a tool call. `callId` is unique within the run.
 * @inline
 */
export interface ToolCallStartEvent extends StreamEventBase {
  type: 'tool-call-start';
  callId: string;
  toolName: string;
}

/**
 * A fragment of a tool call's raw JSON arguments.
 * @inline
 */
export interface ToolCallDeltaEvent extends StreamEventBase {
  type: 'tool-call-delta';
  callId: string;
  toolName: string;
  argsDelta: string;
}

/**
 * The model finished a tool call: `args` is the complete raw JSON.
 * @inline
 */
export interface ToolCallEndEvent extends StreamEventBase {
  type: 'tool-call-end';
  callId: string;
  toolName: string;
  args: string;
}

/**
 * The turn's response is complete.
 * @inline
 */
export interface TurnEndEvent extends StreamEventBase {
  type: 'turn-end';
  attempt: number;
  /** The assistant message the model answered (read-only). */
  message: Message;
  usage?: Usage;
  finishReason?: string;
}

/**
 * A tool call completed; `result` is the text the model sees. On a resume, a pending call resolved
 * without running carries `resolution`: `denied` (`result` is the denial text) or `external`
 * (`result` is the supplied text); a call that ran has none.
 * @inline
 */
export interface ToolResultEvent extends StreamEventBase {
  type: 'tool-result';
  callId: string;
  toolName: string;
  result: string;
  resolution?: 'denied' | 'external';
}

/**
 * A tool call failed (its error text is what the model sees, when the run goes on).
 * @inline
 */
export interface ToolErrorEvent extends StreamEventBase {
  type: 'tool-error';
  callId: string;
  toolName: string;
  error: unknown;
}

/**
 * The answer was rejected by output validation; the model gets a correction round.
 * @inline
 */
export interface CorrectionEvent extends StreamEventBase {
  type: 'correction';
  /** 1-based correction round. */
  round: number;
  error: unknown;
}

/**
 * The run paused on deferred tool calls (approvals or external results).
 * @inline
 */
export interface DeferredEvent extends StreamEventBase {
  type: 'deferred';
  pending: PendingToolCalls;
}

/**
 * The run handed off: the transfer call's turn ended (its calls' `tool-result`s came first) and
 * the `to` agent continues the run from the next `turn-start` (see the handoffs guide).
 * @inline
 */
export interface HandoffStreamEvent extends StreamEventBase {
  type: 'handoff';
  from: string;
  to: string;
  /** The transfer call's id. */
  callId: string;
}

/**
 * The run ended with a result (completed or paused). Always the last event of a run that ended.
 * @inline
 */
export interface FinishEvent<Output> {
  type: 'finish';
  result: Result<Output>;
}

/**
 * The run failed; evidence is on the error. Always the last event of a failed run.
 * @inline
 */
export interface RunErrorEvent {
  type: 'error';
  error: RunError;
}

/**
 * A typed event of a streaming run (`RunStream.events`): turn boundaries, text, reasoning, tool
 * calls with id and name on every fragment, tool outcomes, corrections, deferral, and a final
 * `finish` or `error`.
 */
export type RunStreamEvent<Output = unknown> =
  | TurnStartEvent
  | TurnDiscardedEvent
  | TextDeltaEvent
  | ThinkingDeltaEvent
  | ToolCallStartEvent
  | ToolCallDeltaEvent
  | ToolCallEndEvent
  | TurnEndEvent
  | ToolResultEvent
  | ToolErrorEvent
  | HandoffStreamEvent
  | CorrectionEvent
  | DeferredEvent
  | FinishEvent<Output>
  | RunErrorEvent;

/** The `type` of a {@link RunStreamEvent}. */
export type RunStreamEventType = RunStreamEvent['type'];
