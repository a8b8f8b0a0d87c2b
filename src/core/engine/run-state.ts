import { encodeMessages } from '../codec/codec';
import type { Message } from '../contract/message';
import type { Usage } from '../contract/usage';
import type { JsonValue } from '../kit/json';
import type { PendingToolCalls } from './deferred-types';
import type { Compaction } from './compaction';
import { encodeCompaction } from './compaction-record';

/** The `format` of every {@link RunState}. Internal. */
export const RUN_STATE_FORMAT = 'golem.run-state';

/** The state version this golem writes; it reads this one and every older one. */
export const RUN_STATE_VERSION = 1;

/**
 * Where a run stands, as {@link RunState} records it.
 * - `model`: its next move is a model call (every call of the last turn has its result);
 * - `tools`: the last turn's `calls` (ids) have no result yet — they never started, or were in
 *   flight (`inFlight`) when the process died; continuing runs them (an in-flight one only if
 *   its tool is `idempotent`, else the run pauses on it);
 * - `final`: the last turn is a final answer (or an output-tool call) not yet decoded;
 * - `decisions`: the run is paused on `pending`;
 * - `end`: the run completed.
 * @inline
 */
export type RunStateStep =
  | { kind: 'model' }
  | { kind: 'tools'; calls: string[] }
  | { kind: 'final' }
  | { kind: 'decisions' }
  | { kind: 'end' };

/**
 * A run's state as one versioned JSON value: everything needed to continue it, in any process.
 * `result.state` and a stored run's `record.state` hold it; `JSON.stringify` it to keep it
 * anywhere, and give it (or its `JSON.parse`) back to `agent.resume(state, results)` for a paused
 * run or `agent.resumeRun(state)` for an interrupted one. A store persists the same fields as
 * the columns of its run row (`messages` in the same codec); a queue job names the stored state
 * by its `runId`. Reading validates it like untrusted input; a state written by a newer golem is
 * refused. See the durable-runs guide, "The run's state".
 */
export interface RunState {
  /** Always `'golem.run-state'`. */
  format: 'golem.run-state';
  /** The format version (this golem writes 1). */
  version: number;
  /** The name of the agent that ran it; another agent refuses it. */
  agent: string;
  /** The stored run's id, when the run has a store. */
  runId?: string;
  /** Who the run belongs to, when it was started with an `owner`. */
  owner?: string;
  /** The stored conversation the run continues, if any. */
  conversationId?: string;
  status: 'running' | 'paused' | 'completed' | 'failed';
  /** Where the run stands: what continuing it does first. */
  step: RunStateStep;
  /**
   * The whole conversation — system message, history, every turn and result — in the durable
   * message codec (`encodeMessages`' JSON, parsed): binary parts as base64, call args as JSON.
   */
  messages: JsonValue[];
  /** The calls a paused run waits for (also kept by a run a resume took and had not yet committed). */
  pending?: PendingToolCalls;
  /** Calls that had started and had no recorded outcome at the last checkpoint. */
  inFlight?: string[];
  /** Usage summed over every successful response of every segment. */
  usage: Usage;
  /** Provider calls made, over every segment. */
  requests: number;
  /** Tool executions attempted, over every segment. */
  toolCalls: number;
  /** Model turns completed, over every segment. */
  turns: number;
  /**
   * When the run started (ms since the epoch). `runTimeout` bounds each segment; a caller that
   * bounds the whole run passes the rest of its budget as the next segment's `timeout`.
   */
  startedAt: number;
  /**
   * What compaction replaced in the context the model saw (`messages` keep the originals), with
   * replacement messages in the durable codec; absent when nothing was compacted.
   */
  compactions?: JsonValue[];
  /** The last request's estimated size in tokens (see the context-compaction guide), when known. */
  contextTokens?: number;
}

/** Who a run is and when it started: the part of its state the engine does not produce. Internal. */
export interface StateOrigin {
  readonly agent: string;
  readonly runId?: string | undefined;
  readonly owner?: string | undefined;
  readonly conversationId?: string | undefined;
  readonly startedAt: number;
}

/** The fields a state is written from. Internal. */
export interface StateFields {
  readonly origin: StateOrigin;
  readonly status: RunState['status'];
  readonly messages: readonly Message[];
  readonly pending: PendingToolCalls | undefined;
  readonly inFlight: readonly string[];
  readonly usage: Usage;
  readonly requests: number;
  readonly toolCalls: number;
  readonly turns: number;
  /** The compactions applied to the context (absent or empty: none). */
  readonly compactions?: readonly Compaction[] | undefined;
  /** The last request's estimated size in tokens, when known. */
  readonly contextTokens?: number | undefined;
}

/** A state read back: its fields with messages decoded. Internal. */
export interface ReadState extends StateFields {
  readonly step: RunStateStep;
}

/** Writes a run's state value (the messages encoded by the durable codec). Internal. */
export function writeState(fields: StateFields): RunState {
  const { origin, status, messages, pending, inFlight } = fields;
  const state: RunState = {
    format: RUN_STATE_FORMAT,
    version: RUN_STATE_VERSION,
    agent: origin.agent,
    status,
    step: stepOf(status, messages),
    messages: JSON.parse(encodeMessages(messages)) as JsonValue[],
    usage: { ...fields.usage },
    requests: fields.requests,
    toolCalls: fields.toolCalls,
    turns: fields.turns,
    startedAt: origin.startedAt,
  };
  if (origin.runId !== undefined) state.runId = origin.runId;
  if (origin.owner !== undefined) state.owner = origin.owner;
  if (origin.conversationId !== undefined) state.conversationId = origin.conversationId;
  if (pending !== undefined)
    state.pending = { approvals: [...pending.approvals], external: [...pending.external] };
  if (inFlight.length > 0) state.inFlight = [...inFlight];
  if (fields.compactions !== undefined && fields.compactions.length > 0)
    state.compactions = fields.compactions.map(encodeCompaction);
  if (fields.contextTokens !== undefined) state.contextTokens = fields.contextTokens;
  return state;
}

/**
 * Gives `result` a `state` property computed on first read (a run that is never asked for its
 * state pays nothing for it), and returns it. Internal.
 */
export function attachState<R extends object>(result: R, fields: () => StateFields): R {
  Object.defineProperty(result, 'state', {
    configurable: true,
    enumerable: false,
    get(this: R) {
      const value = writeState(fields());
      Object.defineProperty(this, 'state', { value, configurable: true, enumerable: false });
      return value;
    },
  });
  return result;
}

/**
 * Where a run with `messages` stands (the agent-independent part of the continuation plan: the
 * agent continuing it decides, from its tools, what runs and what pauses). Internal.
 */
export function stepOf(status: RunState['status'], messages: readonly Message[]): RunStateStep {
  if (status === 'completed') return { kind: 'end' };
  if (status === 'paused') return { kind: 'decisions' };
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role !== 'assistant') index--;
  const turn = messages[index];
  if (turn === undefined) return { kind: 'model' };
  const answered = new Set<string>();
  for (const m of messages.slice(index + 1))
    if (m.role === 'tool' && m.toolCallId !== undefined) answered.add(m.toolCallId);
  const calls = turn.toolCalls ?? [];
  if (calls.length === 0) return index === messages.length - 1 ? { kind: 'final' } : MODEL;
  const open = [...new Set(calls.map((c) => c.id))].filter((id) => !answered.has(id));
  return open.length === 0 ? MODEL : { kind: 'tools', calls: open };
}

const MODEL: RunStateStep = { kind: 'model' };
