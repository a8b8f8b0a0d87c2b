import type { Message } from '../contract/message';
import type { Usage } from '../contract/usage';
import type { PendingToolCalls } from './deferred-types';
import type { RunCost } from './result';
import type { RunState, StateOrigin } from './run-state';
import { writeState } from './run-state';
import { checkedHistory } from './checked-history';
import type { Compaction } from './compaction';

import type { HandoffRecord } from './handoff-types';
/** A result's evidence, as the engine hands it over. Internal. */
export interface ResultEvidenceFields {
  messages: Message[];
  usage: Usage;
  requests: number;
  toolCalls: number;
  cost?: RunCost;
  compactions?: Compaction[];
  contextTokens?: number;
  handoffs?: HandoffRecord[];
}

/**
 * A result as the engine returns it: the evidence, the output and the pending calls as its own
 * properties, and its `state` on demand — a getter of the class, so a run nobody asks for its
 * state pays nothing, and the result's own JSON, spreads and equality are those of its data.
 * Internal.
 */
export class EngineResult<Output> {
  declare messages: Message[];
  declare usage: Usage;
  declare requests: number;
  declare toolCalls: number;
  declare cost?: RunCost;
  declare compactions?: Compaction[];
  declare contextTokens?: number;
  declare handoffs?: HandoffRecord[];
  declare output: Output | undefined;
  declare pending?: PendingToolCalls;
  declare runId?: string;
  readonly #origin: StateOrigin;
  readonly #turns: number;
  #state: RunState | undefined;
  #history: readonly Message[] | undefined;

  constructor(
    evidence: ResultEvidenceFields,
    output: Output | undefined,
    pending: PendingToolCalls | undefined,
    origin: StateOrigin,
    turns: number,
  ) {
    this.messages = evidence.messages;
    this.usage = evidence.usage;
    this.requests = evidence.requests;
    this.toolCalls = evidence.toolCalls;
    if (evidence.cost !== undefined) this.cost = evidence.cost;
    if (evidence.compactions !== undefined) this.compactions = evidence.compactions;
    if (evidence.contextTokens !== undefined) this.contextTokens = evidence.contextTokens;
    if (evidence.handoffs !== undefined) this.handoffs = evidence.handoffs;
    this.output = output;
    if (pending !== undefined) this.pending = pending;
    this.#origin = origin;
    this.#turns = turns;
  }

  /** The agent that answered: the last handoff's target, or the run's own agent. */
  get agent(): string {
    const last = this.handoffs?.[this.handoffs.length - 1];
    return last === undefined ? this.#origin.agent : last.to;
  }

  /** The conversation as a checked history for a next run (see `Agent.history`), made on first read. */
  get history(): readonly Message[] {
    return (this.#history ??= checkedHistory(this.messages));
  }

  /** The run's state as one JSON value, written on first read (see `RunState`). */
  get state(): RunState {
    return (this.#state ??= writeState({
      origin: this.runId === undefined ? this.#origin : { ...this.#origin, runId: this.runId },
      status: this.pending === undefined ? 'completed' : 'paused',
      messages: this.messages,
      pending: this.pending,
      inFlight: [],
      usage: this.usage,
      requests: this.requests,
      toolCalls: this.toolCalls,
      turns: this.#turns,
      compactions: this.compactions,
      contextTokens: this.contextTokens,
    }));
  }
}
