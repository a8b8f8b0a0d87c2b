import type { Usage } from '../model/usage';

/** What happened. */
export type RunEventKind =
  'model_start' | 'model_end' | 'tool_start' | 'tool_end' | 'output_rejected' | 'deferred';

/** One observable step of a run. Advisory: `Result.messages` stays canonical. */
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
  /** Text a tool returned. */
  result?: string;
  /** Usage of one provider attempt (model_end). */
  usage?: Usage;
  /** Why an attempt, a tool call or an output failed. */
  error?: unknown;
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
