import type { Message, RunEvent, Usage } from '../core/index';

/** One tool call the task's run made, from its transcript (and events, when observed). */
export interface EvalToolCall {
  /** The tool's name. */
  readonly name: string;
  /** The call's id. */
  readonly id: string;
  /** The arguments, parsed from the model's JSON (the raw text when it is not JSON). */
  readonly args: unknown;
  /** The tool's result text, when the transcript has it. */
  readonly result?: string;
}

/** Everything an evaluator sees of one case run. */
export interface EvalContext<Input = unknown, Output = unknown, Expected = unknown> {
  /** The case: its name, input, expected output and metadata. */
  readonly case: {
    readonly name: string;
    readonly input: Input;
    readonly expected?: Expected;
    readonly metadata?: Readonly<Record<string, unknown>>;
  };
  readonly input: Input;
  /** The case's `expected`, when it has one. */
  readonly expected: Expected | undefined;
  /** The task's output (for an agent: the result's `output`). */
  readonly output: Output;
  /** The run's transcript (empty for a task that returned a plain value). */
  readonly messages: readonly Message[];
  /** The run events observed (empty unless the task passed `ctx.runOptions` to its runs). */
  readonly events: readonly RunEvent[];
  /** The tool calls of the transcript, in order. */
  readonly toolCalls: readonly EvalToolCall[];
  /** Model turns taken: the observed runs' successful model calls (history given to a run does not count), else the transcript's assistant messages. */
  readonly turns: number;
  /** Model requests made. */
  readonly requests: number;
  /** Tokens used. */
  readonly usage: Usage;
  /** Priced cost in the price table's currency (absent: not priced). */
  readonly cost: number | undefined;
  /** Wall time of the task in ms (on replay: the recorded time). */
  readonly durationMs: number;
  /** Which repetition this is, from 0. */
  readonly repeat: number;
  /** Cancels the evaluation (the experiment's signal). */
  readonly signal: AbortSignal;
}

/**
 * What an evaluator returns: a boolean (pass/fail), a number in 0–1 (a score; passes at the
 * evaluator's `threshold`, default 0.5), or both with a reason and a label.
 */
export type EvalScore =
  | boolean
  | number
  | {
      readonly pass?: boolean;
      readonly score?: number;
      readonly reason?: string;
      readonly label?: string;
      /** What the evaluator itself spent (an LLM judge's tokens), reported apart from the task's. */
      readonly usage?: Usage;
      /** Its priced cost, when known. */
      readonly cost?: number;
    };

/** Checks one case run. Built-ins come from `golem/evals`; write your own with `evaluator()`. */
export interface Evaluator<Input = unknown, Output = unknown, Expected = unknown> {
  /** Names the evaluator in reports (unique per case; a duplicate gets `#2`, `#3`…). */
  readonly name: string;
  /** The score at which a numeric result passes; default 0.5. */
  readonly threshold?: number;
  evaluate(ctx: EvalContext<Input, Output, Expected>): EvalScore | Promise<EvalScore>;
}

/** One evaluator's verdict on one case run, normalised. */
export interface EvaluatorResult {
  readonly name: string;
  readonly pass: boolean;
  /** 0–1 (a boolean verdict scores 1 or 0). */
  readonly score: number;
  readonly reason?: string;
  readonly label?: string;
  /** Set when the evaluator threw: the run fails this evaluator with the error's message. */
  readonly error?: string;
  /** What the evaluator spent (an LLM judge's tokens), when it says. */
  readonly usage?: Usage;
  readonly cost?: number;
}
