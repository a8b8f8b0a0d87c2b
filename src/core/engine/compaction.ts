import type { Message } from '../contract/message';
import type { Model } from '../contract/model';
import type { ContextEdit } from '../contract/response';
import type { Usage } from '../contract/usage';

/**
 * The built-in compaction policies: `clear-tool-results` replaces old tool results with a short
 * marker (the calls stay); `summarise` condenses everything before the kept turns into one
 * summary message written by a model; `provider` asks the provider to compact on its side
 * (Anthropic context editing, OpenAI Responses compaction) and records what it reports.
 * @inline
 */
export type CompactionPolicyName = 'clear-tool-results' | 'summarise' | 'provider';

/**
 * What a custom {@link CompactionPolicy} is given: the context the next request would send and
 * where its protected tail starts.
 * @inline
 */
export interface CompactionInput {
  /** The messages the next request would send, system message (if any) first: read-only. */
  readonly messages: readonly Message[];
  /**
   * Where the verbatim tail starts in `messages` (the kept turns and everything after them); a
   * policy rewrites only what lies between the system message and this index.
   */
  readonly keepFrom: number;
  /** The context's size in tokens (estimated). */
  readonly contextTokens: number;
  /** The size a compaction aims for. */
  readonly targetTokens: number;
  /** The estimator the agent uses, for one message. */
  readonly countTokens: (message: Message) => number;
  /** The run's cancellation signal. */
  readonly signal: AbortSignal;
}

/**
 * A custom compaction policy: given the context, returns the messages that replace everything
 * between the system message and `keepFrom` (or `undefined` to leave it). Golem checks the
 * replacement (no tool call without its result, no result without its call, no system message)
 * and records it in the run's evidence, so the same context is rebuilt on resume.
 */
export interface CompactionPolicy {
  /** Names the policy in the evidence, events and spans. */
  readonly name: string;
  compact(input: CompactionInput): Promise<{ replacement: Message[]; usage?: Usage } | undefined>;
}

/**
 * An agent's `compaction`: keep a run's context under a token budget. Before each model call the
 * engine estimates the request's size (`contextTokens`: the provider-reported usage of the last
 * turn plus an estimate of what was added since); above `maxTokens` it applies `policies` in order
 * until the context is at most `targetTokens`. The run's `messages` keep the originals; the
 * evidence (`compactions`) says what each compaction replaced.
 */
export interface CompactionOptions {
  /** Compact when the next request is estimated above this many tokens. */
  maxTokens: number;
  /** What a compaction aims for, so it does not fire on every turn; default 60 % of `maxTokens`. */
  targetTokens?: number;
  /**
   * What stays verbatim: the newest `turns` turns (a turn starts at each user message and at each
   * assistant message; a call's results stay with it); default 2. The system message always stays.
   */
  keep?: { turns?: number };
  /** Applied in order until the context fits; default `['clear-tool-results', 'summarise']`. */
  policies?: readonly (CompactionPolicyName | CompactionPolicy)[];
  /** The `summarise` policy's model and prompt. */
  summary?: {
    /** The model that writes summaries (a cheaper one, say); default the agent's. */
    model?: Model;
    /** Replaces the default summariser instructions. */
    instructions?: string;
    /** `maxTokens` of the summariser's answer; default 1024. */
    maxTokens?: number;
  };
  /**
   * Counts the tokens of a text; default `Math.ceil(text.length / 4)` (see the guide for a real
   * tokenizer such as `gpt-tokenizer`). Used only for what the provider has not measured yet.
   */
  countTokens?: (text: string) => number;
}

/**
 * One compaction, as a run's evidence records it (`result.compactions`, `RunError.partial`, a
 * stored run). Positions count the conversation's messages without the system message, so they
 * stay valid when a later run continues the conversation with other instructions.
 */
export interface Compaction {
  /** `clear-tool-results`, `summarise`, `provider` or a custom policy's `name`. */
  policy: string;
  /** The first conversation position it concerns (system message not counted). */
  from: number;
  /** One past the last position it concerns. */
  to: number;
  /** The model turn of the run before which it happened (0-based, over every segment). */
  turn: number;
  /** The context's estimated size before, in tokens. */
  tokensBefore: number;
  /** The context's estimated size after, in tokens. */
  tokensAfter: number;
  /** `clear-tool-results`: the calls whose results were replaced by a marker. */
  cleared?: string[];
  /** `summarise` and custom policies: the messages the model sees instead of `from`…`to`. */
  replacement?: Message[];
  /** `provider`: what the provider reported it did. */
  edits?: ContextEdit[];
  /** Usage of the call that wrote the replacement (a summary), when a model was called. */
  usage?: Usage;
}
