/**
 * The studio's HTTP contract: what `createStudio` answers and the studio app reads. Types only
 * (the app imports them type-only); JSON-safe shapes.
 */

/** A run's status as the run store keeps it. */
export type StudioRunStatus = 'running' | 'paused' | 'completed' | 'failed';

/** Token counts of a run or a turn. */
export interface StudioUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number;
  readonly reasoningTokens?: number;
}

/** One run in the list. */
export interface RunSummary {
  readonly id: string;
  readonly agent: string;
  readonly status: StudioRunStatus;
  readonly owner?: string;
  readonly conversationId?: string;
  /** Epoch ms. */
  readonly createdAt: number;
  /** Epoch ms. */
  readonly updatedAt: number;
  readonly turns: number;
  readonly requests: number;
  readonly toolCalls: number;
  readonly usage: StudioUsage;
  /** Calls the run waits for (paused runs). */
  readonly pending: number;
  /** Why a failed run failed. */
  readonly error?: { readonly stage: string; readonly message: string };
  /** Whether a live process holds the run (an unexpired lease). */
  readonly held: boolean;
  /** The store's version of the run (changes at every checkpoint). */
  readonly version: number;
  /** What the run cost, when its traces carry a price (`golem.cost.total` on its spans). */
  readonly cost?: StudioCost;
}

/** A price, as the run's spans report it. */
export interface StudioCost {
  readonly total: number;
  /** ISO 4217 code, e.g. `USD`. */
  readonly currency: string;
}

/** A page of runs, newest `updatedAt` first. */
export interface RunPage {
  readonly runs: readonly RunSummary[];
  /** How many runs matched among those read (at most the read cap). */
  readonly total: number;
  /** Whether more runs may match than `total` counts (only this page and the next were read). */
  readonly more?: boolean;
  /** The `offset` of the next page, when there is one. */
  readonly nextOffset?: number;
}

/** A call the run waits for. */
export interface StudioPendingCall {
  readonly callId: string;
  readonly toolName: string;
  /** The raw JSON arguments. */
  readonly args: string;
  readonly reason: string;
  readonly kind: 'approval' | 'external';
}

/** One tool call of a turn, with its result when the history has one. */
export interface StudioToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments, pretty-printed JSON when they parse, else as sent. */
  readonly args: string;
  /** The result text, when answered. */
  readonly result?: string;
  /** Whether the answer was an error fed back to the model. */
  readonly isError?: boolean;
  /** Whether the call waits for a decision. */
  readonly pending?: boolean;
  /** Whether the call had started and had no recorded outcome at the last checkpoint. */
  readonly inFlight?: boolean;
}

/** One model turn: an assistant message and what answered its calls. */
export interface StudioTurn {
  /** 0-based. */
  readonly index: number;
  /** The message index (in `messages`) of the assistant message. */
  readonly messageIndex: number;
  /** The user text that preceded this turn, if a user message did. */
  readonly prompt?: string;
  readonly text?: string;
  readonly thinking?: readonly string[];
  readonly toolCalls: readonly StudioToolCall[];
  /** From the run's spans, when traced: the turn's usage, attempts and timing. */
  readonly usage?: StudioUsage;
  /** The turn's cost (all its attempts), when its spans carry one. */
  readonly cost?: StudioCost;
  readonly attempts?: number;
  readonly durationMs?: number;
}

/** A span kept by the studio's OTLP endpoint. */
export interface SpanSummary {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  /** Epoch ms (fractional). */
  readonly startMs: number;
  readonly durationMs: number;
  /** 'unset' | 'ok' | 'error'. */
  readonly status: 'unset' | 'ok' | 'error';
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** The span's events (a guardrail's decision, a resolved call, …), in order. */
  readonly events?: readonly SpanEvent[];
}

/** An event recorded on a span. */
export interface SpanEvent {
  readonly name: string;
  /** Epoch ms (fractional). */
  readonly timeMs: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
}

/** One guardrail decision of a run, from its spans' `golem.guardrail` events. */
export interface StudioGuardrailVerdict {
  readonly name: string;
  /** input, output, tool-input, tool-output, … */
  readonly phase: string;
  /** pass, rewrite, trip, retry or failed. */
  readonly outcome: string;
  /** Recorded only with content capture on. */
  readonly reason?: string;
  /** The tool call it judged, for tool phases. */
  readonly toolName?: string;
  readonly callId?: string;
  /** Epoch ms (fractional). */
  readonly timeMs: number;
}

/** Everything the studio shows of one run. */
export interface RunDetail {
  readonly summary: RunSummary;
  /** The stored history, as golem's durable JSON (`encodeMessages`, parsed). */
  readonly messages: readonly unknown[];
  readonly timeline: readonly StudioTurn[];
  readonly pending: readonly StudioPendingCall[];
  readonly inFlight: readonly string[];
  /** Turn indexes a replay may start from (0 … turns). */
  readonly checkpoints: readonly number[];
  readonly spans: readonly SpanSummary[];
  /** The guardrail decisions its spans recorded, in time order (traced runs only). */
  readonly guardrails: readonly StudioGuardrailVerdict[];
  /** A completed run's output, as stored (JSON). */
  readonly output?: unknown;
  /** Where the run stands on the queue, when the studio has one (`golem/queue`). */
  readonly queue?: StudioQueueState;
  /** What the studio may do with the run now. */
  readonly actions: {
    readonly decide: boolean;
    readonly resume: boolean;
    readonly replay: boolean;
    /** Cancel it (a queued or running run, with a queue). */
    readonly cancel: boolean;
  };
}

/** A run's place on the queue (`RunQueue.status`). */
export interface StudioQueueState {
  /** queued, running, paused, completed, failed or cancelled. */
  readonly state: string;
  /** The BullMQ job carrying its latest segment, while BullMQ keeps it. */
  readonly job?: { readonly lane: string; readonly id: string; readonly state?: string };
  /** Why it was cancelled. */
  readonly cancelReason?: string;
}

/** `POST /api/runs/:id/cancel`. */
export interface CancelBody {
  readonly reason?: string;
}

/** What an agent is (a golem `Agent`'s `describe()`), as the studio lists it. */
export interface StudioAgentInfo {
  readonly name: string;
  readonly description?: string;
  readonly tools: readonly { readonly name: string; readonly description: string }[];
  readonly handoffs: readonly string[];
  readonly structuredOutput: boolean;
  readonly streaming: boolean;
  readonly deferredTools: boolean;
}

/** `GET /api/info`. */
export interface StudioInfo {
  readonly version: string;
  readonly agents: readonly StudioAgentInfo[];
  /** Names of the models a replay or the playground may pick. */
  readonly models: readonly string[];
  /** The owner the studio is scoped to, if any. */
  readonly owner?: string;
  readonly features: {
    readonly traces: boolean;
    readonly evals: boolean;
    readonly playground: boolean;
    /** Actions go through a run queue (workers execute them). */
    readonly queue: boolean;
  };
}

/** `POST /api/runs/:id/decisions`. */
export interface DecisionsBody {
  readonly approvals?: Readonly<Record<string, { approved: boolean; reason?: string }>>;
  readonly external?: Readonly<Record<string, string>>;
}

/** `POST /api/runs/:id/replay`. */
export interface ReplayBody {
  /** The assistant turn the replay starts at (what preceded it is kept). */
  readonly fromTurn: number;
  /** Replaces the text of the last user message kept. */
  readonly prompt?: string;
  /** A model of `StudioInfo.models` for the replay. */
  readonly model?: string;
  /** Replaces the results of these calls (calls inside the kept history). */
  readonly toolResults?: Readonly<Record<string, string>>;
}

/** The answer of an action that starts a run. */
export interface StartedRun {
  readonly runId: string;
}

/** An eval report file, listed. */
export interface EvalReportSummary {
  /** The file name in the reports folder. */
  readonly file: string;
  /** The experiment's name. */
  readonly name: string;
  readonly dataset: string;
  /** ISO time the experiment started. */
  readonly startedAt: string;
  readonly cases: number;
  readonly passRate: number;
  readonly meanScore: number;
}

/** Every error answer. */
export interface StudioErrorBody {
  readonly error: string;
}
