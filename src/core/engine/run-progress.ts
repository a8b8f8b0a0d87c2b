import type { Cost } from '../contract/cost';
import { addCost } from '../contract/cost';
import type { Message } from '../contract/message';
import type { GenerateOptions } from '../contract/model';
import type { RunCheckpoints } from './checkpoint';
import type { Usage } from '../contract/usage';
import { addUsage, emptyUsage } from '../contract/usage';
import type { RunEvent } from './events';
import { emitEvent } from './events';
import type { PartialEvidence, RunStage } from './errors';
import { RunError } from './errors';
import type { RunCost } from './result';
import type { RunSettings } from './run-config';
import type { StateFields, StateOrigin } from './run-state';
import type { Compaction } from './compaction';
import type { ContextAnchor } from './context-tokens';

import type { HandoffRecord } from './handoff-types';
/** The mutable evidence of one run. Internal. */
export class RunProgress<Deps> {
  /** The evidence so far; tool results are committed only when a whole batch is classified. */
  messages: Message[];
  usage: Usage = emptyUsage();
  requests = 0;
  toolCalls = 0;
  /** Model turns completed by this run (not by its history). */
  completedTurns = 0;
  /** The text a failed streamed turn had already delivered, if any. */
  interrupted: Message | undefined;
  /** Durable progress reporting; set only when the run has a store (one check per checkpoint). */
  checkpoints: RunCheckpoints | undefined = undefined;
  /** What the priced responses cost; set only when the agent has `prices`. */
  cost: RunCost | undefined = undefined;
  /** The compactions applied to the context so far (every segment's). */
  compactions: Compaction[] = [];
  /** The last request's estimated size in tokens (set when compaction is on or the run observed). */
  contextTokens: number | undefined = undefined;
  /** What the provider measured of the context at the last response. */
  anchor: ContextAnchor | undefined = undefined;
  /** How many messages the last request sent (set with `contextTokens`). */
  requestLength: number | undefined = undefined;
  /** Whether this run (not its history) compacted anything: evidence for `partial`. */
  compacted = false;
  /** Gives a completed run's new messages to the agent's memory (set when it has one). */
  remember: ((added: readonly Message[]) => Promise<void>) | undefined = undefined;
  /** Where the run's new messages start in `messages` (its prompt, or its first new turn). */
  rememberFrom = 0;
  /** The handoffs taken so far (every segment's), in order. */
  handoffs: HandoffRecord[] = [];
  /** How many handoffs the run may take: its own agent's `maxHandoffs` (set when it starts). */
  handoffLimit: number | undefined = undefined;
  /** The call options of the run's plain model turns (see `modelTurn`), made on first use. */
  plainCallOptions: GenerateOptions | undefined = undefined;

  constructor(
    readonly run: RunSettings<Deps>,
    messages: Message[],
    /** Who the run is and when it started (what its state value names). */
    public origin: StateOrigin,
  ) {
    this.messages = messages;
  }

  /**
   * Continues the counters and identity of the run `from` (a stored run's checkpoint, a held
   * state): a continued run counts every segment, not this one only.
   */
  carryOver(from: Omit<StateFields, 'status' | 'messages' | 'pending' | 'inFlight'>): void {
    this.origin = from.origin;
    this.usage = { ...from.usage };
    this.requests = from.requests;
    this.toolCalls = from.toolCalls;
    this.completedTurns = from.turns;
    this.compactions = from.compactions === undefined ? [] : [...from.compactions];
  }

  /** The agent answering now: the last handoff's target, else the run's own agent. */
  get agent(): string {
    const last = this.handoffs[this.handoffs.length - 1];
    return last === undefined ? this.origin.agent : last.to;
  }

  /** Records a successful model response. */
  recordResponse(message: Message, usage: Usage): void {
    this.messages.push(message);
    this.usage = addUsage(this.usage, usage);
    this.completedTurns++;
  }

  /**
   * Adds one response's cost to the run's (`undefined`: the table has no price for its model,
   * counted in `unpriced`). `currency` is the table's, for a run's first response.
   */
  addCost(cost: Cost | undefined, currency: string): void {
    const base = this.cost ?? zeroCost(currency);
    this.cost =
      cost === undefined
        ? { ...base, unpriced: base.unpriced + 1 }
        : { ...addCost(base, cost), unpriced: base.unpriced };
  }

  /** Whether anyone observes this run; call sites skip building events when nobody does. */
  get observed(): boolean {
    return this.run.observers.length > 0;
  }

  emit(event: RunEvent): void {
    emitEvent(this.run.observers, event);
  }

  /** The evidence for a failure, absent when this run produced none (decision D5). */
  partial(toolResults: readonly Message[] = []): PartialEvidence | undefined {
    const produced =
      this.completedTurns > 0 ||
      this.toolCalls > 0 ||
      this.interrupted !== undefined ||
      this.compacted ||
      this.usage.inputTokens + this.usage.outputTokens > 0;
    if (!produced) return undefined;
    const partial: PartialEvidence = {
      messages: [...this.messages],
      usage: { ...this.usage },
      requests: this.requests,
      toolCalls: this.toolCalls,
    };
    if (toolResults.length > 0) partial.toolResults = [...toolResults];
    if (this.interrupted !== undefined) partial.interrupted = { ...this.interrupted };
    if (this.cost !== undefined) partial.cost = { ...this.cost };
    if (this.compactions.length > 0) partial.compactions = [...this.compactions];
    return partial;
  }

  /** A `RunError` at `stage` carrying this run's partial evidence (and a failing batch's completed results). */
  fail(stage: RunStage, cause: unknown, toolResults: readonly Message[] = []): RunError {
    const error = new RunError(stage, cause, this.partial(toolResults));
    this.run.trace?.record({ ok: false, error });
    return error;
  }
}

/** A run cost of nothing yet, in `currency`. Internal. */
export function zeroCost(currency: string): RunCost {
  return { total: 0, input: 0, output: 0, currency, unpriced: 0 };
}
