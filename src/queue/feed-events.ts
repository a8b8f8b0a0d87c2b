import type { PendingToolCalls } from '../core/engine/deferred-types';
import type { RunEvent, RunEventKind } from '../core/engine/events';
import type { Delta } from '../core/contract/delta';
import { describeError } from '../core/kit/error-base';
import type { JsonValue } from '../core/kit/json';
import type { Message } from '../core/contract/message';
import type { Usage } from '../core/contract/usage';
import type { RunJobKind } from './job';

/** A run event as the feed carries it: JSON, without the request (large) and with errors as text. */
export interface FeedRunEvent {
  kind: RunEventKind;
  turn: number;
  attempt: number;
  callId?: string;
  toolName?: string;
  args?: string;
  result?: string;
  /** `tool_resolved`: how a resumed run resolved the call without running it. */
  resolution?: 'denied' | 'external';
  usage?: Usage;
  /** Why an attempt, a call or an output failed, as `describeError` renders it. */
  error?: string;
  model?: string;
  finishReason?: string;
  /** `model_end`: the assistant message. */
  message?: Message;
  /** `tool_progress`, `tool_log`: what the tool reported. */
  update?: JsonValue;
}

/** Why a run failed, as the feed reports it. */
export interface FeedFailure {
  /** The run stage (`model`, `tool`, …), `store`, or `queue`. */
  stage: string;
  /** The error kind (`RunError`, `StoreError`, `QueueError`) and, for queue errors, the reason. */
  kind: string;
  reason?: string;
  message: string;
}

/**
 * What a subscriber receives about a run, in order, from whichever worker runs it:
 * `queued` → `started` (or `recovered`, when a worker continues a run from its checkpoint) →
 * `delta`s and `event`s → one of `completed`, `paused`, `failed`, `cancelled`. A paused run's
 * resume continues on the same feed. `retrying` says a failure outside the run's own budget
 * (the store unreachable) will be retried from the checkpoint; `gap` (made by the subscriber)
 * says older entries were trimmed before it read them.
 */
export type RunFeedEvent =
  | { type: 'queued'; runId: string; agent: string; kind: RunJobKind; at: number }
  | {
      type: 'started';
      runId: string;
      kind: RunJobKind;
      attempt: number;
      worker: string;
      at: number;
    }
  | { type: 'recovered'; runId: string; worker: string; at: number }
  | { type: 'delta'; delta: Delta }
  | { type: 'event'; event: FeedRunEvent }
  | { type: 'retrying'; error: FeedFailure; attempt: number; at: number }
  | { type: 'requeued'; reason: string; at: number }
  | {
      type: 'completed';
      output: JsonValue;
      usage: Usage;
      requests: number;
      toolCalls: number;
      at: number;
    }
  | { type: 'paused'; pending: PendingToolCalls; at: number }
  | { type: 'failed'; error: FeedFailure; at: number }
  | { type: 'cancelled'; reason: string; at: number }
  | { type: 'gap'; missed: number };

/** The types after which a run is settled (paused counts: it waits for a decision). */
export const SETTLED_TYPES: ReadonlySet<string> = new Set([
  'completed',
  'paused',
  'failed',
  'cancelled',
]);

/** The types after which a run is finished for good. */
export const FINISHED_TYPES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** One feed entry: the event and its position (pass `cursor` back as `after` to resume reading). */
export interface FeedEntry {
  /** Opaque, increasing; an SSE `id`. */
  cursor: string;
  /** 1-based position of the event in the run's feed. */
  seq: number;
  event: RunFeedEvent;
}

/** `value` as JSON (`null` when it is not representable). */
export function jsonOf(value: unknown): JsonValue {
  if (value === undefined) return null;
  try {
    const text = JSON.stringify(value) as string | undefined; // undefined for a function
    return text === undefined ? null : (JSON.parse(text) as JsonValue);
  } catch {
    return null;
  }
}

/** A {@link RunEvent} for the feed. */
export function feedRunEvent(event: RunEvent): FeedRunEvent {
  const out: FeedRunEvent = { kind: event.kind, turn: event.turn, attempt: event.attempt };
  if (event.callId !== undefined) out.callId = event.callId;
  if (event.toolName !== undefined) out.toolName = event.toolName;
  if (event.args !== undefined) out.args = event.args;
  if (event.result !== undefined) out.result = event.result;
  if (event.resolution !== undefined) out.resolution = event.resolution;
  if (event.usage !== undefined) out.usage = event.usage;
  if (event.error !== undefined) out.error = describeError(event.error);
  if (event.model !== undefined) out.model = event.model;
  if (event.finishReason !== undefined) out.finishReason = event.finishReason;
  if (event.message !== undefined) out.message = event.message;
  if (event.update !== undefined) out.update = jsonOf(event.update);
  return out;
}
