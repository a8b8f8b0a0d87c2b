import type { Cost } from '../contract/cost';
import type { Message } from '../contract/message';
import type { ModelRequest } from '../contract/request';
import type { Usage } from '../contract/usage';
import type { ToolUpdate } from '../tool/context';
import type { GuardrailCheck } from './guardrails';

/** What happened. */
export type RunEventKind =
  | 'model_start'
  | 'model_end'
  | 'tool_start'
  | 'tool_end'
  | 'tool_resolved'
  | 'output_rejected'
  | 'deferred'
  | 'fallback'
  | 'tool_progress'
  | 'tool_log'
  | 'guardrail';

/**
 * One observable step of a run. Advisory: `Result.messages` stays canonical. Events carry the
 * run's own objects (`request`, `message`): treat them as read-only.
 */
export interface RunEvent {
  kind: RunEventKind;
  /** 0-based model turn within the current loop execution. */
  turn: number;
  /** 1-based provider attempt (model events) or correction round (output_rejected); 0 on tool events. */
  attempt: number;
  callId?: string;
  toolName?: string;
  /** Raw JSON arguments of a tool call. */
  args?: string;
  /** Text a tool returned (`tool_resolved`: the text the model sees for the call). */
  result?: string;
  /**
   * `tool_resolved`: how a resumed run resolved a pending call without running it — `denied` (an
   * approval refused; `result` is the denial text) or `external` (`result` is the supplied text).
   */
  resolution?: 'denied' | 'external';
  /** Usage of one provider attempt (model_end). */
  usage?: Usage;
  /** Why an attempt, a tool call or an output failed. */
  error?: unknown;
  /**
   * The name of the model called (`model_start`, `model_end`: the agent's model, e.g.
   * `openai:gpt-4o-mini` or `fallback(a, b)`); on `fallback`, the member that failed.
   */
  model?: string;
  /** `model_start`: the request sent (messages, tool specs, settings). */
  request?: ModelRequest;
  /** `model_end` (success): the assistant message the model answered. */
  message?: Message;
  /** `model_end`: the provider's response id, when it sent one. */
  responseId?: string;
  /** `model_end`: the model the provider says answered, when it says. */
  responseModel?: string;
  /** `model_end`: the provider's finish reason, when known. */
  finishReason?: string;
  /** `model_end`: what this attempt cost, when the agent has `prices` and the model is priced. */
  cost?: Cost;
  /** `fallback`: the member a `FallbackModel` tries next (`model` is the one that failed). */
  nextModel?: string;
  /** `tool_progress`, `tool_log`: what a running tool reported through `ToolContext.report`. */
  update?: ToolUpdate;
  /** `guardrail`: which guardrail checked what, and how it decided (tool phases set `callId`, `toolName`). */
  guardrail?: GuardrailCheck;
}

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
