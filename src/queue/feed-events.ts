import type { PendingToolCalls } from '../core/engine/deferred-types';
import type { RunEvent } from '../core/engine/events';
import type { Delta } from '../core/contract/delta';
import { describeError } from '../core/kit/error-base';
import type { JsonValue } from '../core/kit/json';
import type { Usage } from '../core/contract/usage';
import type { ToolUpdate } from '../core/tool/context';
import type { RunJobKind } from './job';

/**
 * A {@link RunEvent} as the feed carries it: its JSON form, the same union on `kind` with the same
 * fields, except `request` (large, left out), `error` (the text `describeError` renders) and a
 * `tool_log` update's `data` (as JSON).
 */
export type FeedRunEvent = RunEvent extends infer E
  ? E extends RunEvent
    ? {
        [K in keyof E as K extends 'request' ? never : K]: K extends 'error'
          ? E[K] extends undefined
            ? undefined
            : string
          : K extends 'update'
            ? E[K] extends { kind: 'log' }
              ? FeedLogUpdate
              : E[K]
            : E[K];
      }
    : never
  : never;

/**
 * A tool's log line as JSON: its `data` a JSON value.
 * @inline
 */
type FeedLogUpdate = Omit<Extract<ToolUpdate, { kind: 'log' }>, 'data'> & { data: JsonValue };

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
 * says older entries were trimmed before it read them. A `delta` may hold several consecutive
 * model fragments of one kind joined (content text, one reasoning block's text, one tool call's
 * arguments; joined up to 16 384 characters): concatenating the deltas gives the streamed text.
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

/**
 * A {@link RunEvent} for the feed: its fields copied (the assistant message as it is, a tool's
 * update as JSON), except `request`; the error as its description, never the error object.
 */
export function feedRunEvent(event: RunEvent): FeedRunEvent {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) {
    if (key === 'error') out.error = describeError(value);
    else if (key === 'update') out.update = feedUpdate(value as ToolUpdate);
    else if (key !== 'request' && value !== undefined) out[key] = value;
  }
  return out as FeedRunEvent;
}

/** An update as JSON; a log line whose data is not representable keeps its level, data `null`. */
function feedUpdate(update: ToolUpdate): JsonValue {
  return jsonOf(update) ?? jsonOf({ ...update, data: null });
}
