import type { HandoffRecord } from './handoff-types';
import type { Cost } from '../contract/cost';
import type { Message } from '../contract/message';
import type { Usage } from '../contract/usage';
import type { PendingToolCalls } from './deferred-types';
import type { RunState } from './run-state';
import type { Compaction } from './compaction';

/** Evidence every result carries. */
interface ResultEvidence {
  /** The complete conversation: system message, history, prompt, every turn and tool result. */
  messages: Message[];
  /** Usage summed over every successful response of the run. */
  usage: Usage;
  /** Provider calls made, retried attempts included. */
  requests: number;
  /** Tool executions attempted. */
  toolCalls: number;
  /** The stored run's id, present when the agent has a run store (see durable runs). */
  runId?: string;
  /**
   * What the run's successful responses cost, present when the agent has `prices` (a
   * `PriceTable`). Covers this run's calls only (not earlier segments of a stored run).
   */
  cost?: RunCost;
  /**
   * What compaction replaced in the context the model saw, in order (present when anything was
   * compacted, over every segment of the run). `messages` keep the originals.
   */
  compactions?: Compaction[];
  /** The last request's estimated size in tokens, when the agent has `compaction`. */
  contextTokens?: number;
  /**
   * The handoffs the run took, in order (present when it handed off at least once; see the
   * handoffs guide): who handed off to whom, at which turn.
   */
  handoffs?: HandoffRecord[];
  /**
   * The name of the agent that answered: the last handoff's target, or the run's own agent. Not
   * enumerable (a getter), like `state`.
   */
  readonly agent: string;
  /**
   * The conversation (`messages`) as a checked history for the next run — validated, copied,
   * repaired and frozen once (see `Agent.history`): pass it as the next run's `history` and that
   * run carries it without copying or checking it again. Messages of the history this run was
   * given are reused as they are, so only the new ones are checked. A paused run's unanswered
   * calls get "interrupted" results here (resume the run to decide them instead). Made on first
   * read; not enumerable, like `state`.
   */
  readonly history: readonly Message[];
  /**
   * The run's state as one JSON value — what `resume`/`resumeRun` continue from, in any process
   * (see {@link RunState}). Computed on first read; not enumerable, so spreading or serialising the
   * result leaves it out: `JSON.stringify(result.state)` to keep it.
   */
  readonly state: RunState;
}

/**
 * The cost of a run: the priced responses' total, and how many responses had no price.
 * @inline
 */
export interface RunCost extends Cost {
  /** Responses whose model the price table does not know; their cost is not in the totals. */
  unpriced: number;
}

/** A run that finished with a decoded output. */
export interface CompletedResult<Output> extends ResultEvidence {
  output: Output;
  pending?: undefined;
}

/** A run that paused on deferred tool calls; resume it with `agent.resume`. */
export interface PausedResult extends ResultEvidence {
  output: undefined;
  pending: PendingToolCalls;
}

/** What a run of a pausable agent returns: check `pending` before `output`. */
export type Result<Output> = CompletedResult<Output> | PausedResult;

/**
 * What `run` returns: a `CompletedResult` unless the agent enables `deferredTools`, in which case
 * a run may pause and the result is the `Result` union.
 */
export type RunResult<Output, Pausable extends boolean> = Pausable extends true
  ? Result<Output>
  : CompletedResult<Output>;
