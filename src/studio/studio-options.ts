import type {
  ContinueOptions,
  DeferredResults,
  Model,
  ResumeOptions,
  RunOptions,
  RunStore,
} from '../core/index';
import type { ChatAgent } from '../ui/index';

/**
 * What the studio needs of an agent; a golem `Agent` fits: its name, `describe()`, the doors that
 * start, resume and continue runs, and the streaming doors the playground's chat uses.
 */
export interface StudioAgent extends ChatAgent {
  readonly name: string;
  describe(): {
    readonly name: string;
    readonly description: string | undefined;
    readonly tools: readonly { readonly name: string; readonly description: string }[];
    readonly handoffs: readonly string[];
    readonly output: unknown;
    readonly streaming: boolean;
    readonly deferredTools: boolean;
  };
  run(prompt: string, options?: RunOptions<unknown>): Promise<unknown>;
  resume(
    history: string,
    results: DeferredResults,
    options?: ResumeOptions<unknown>,
  ): Promise<unknown>;
  resumeRun(runId: string, options?: ContinueOptions<unknown>): Promise<unknown>;
}

/** Who a queue call speaks for: with `owner`, another owner's run is `not-found`. */
export interface StudioQueueScope {
  owner?: string;
}

/** Where a run is on a queue, as {@link StudioQueue.status} reports it. */
export interface StudioQueueStatus {
  /** queued, running, paused, completed, failed or cancelled. */
  readonly state: string;
  /** The job carrying the run's latest segment, while the queue keeps it. */
  readonly job?:
    { readonly lane: string; readonly id: string; readonly state?: string | undefined } | undefined;
  /** Why it was cancelled, when it was. */
  readonly cancelReason?: string | undefined;
}

/**
 * A run queue the studio acts through (golem/queue's `RunQueue` fits): workers execute the runs,
 * so decisions and resumes are queued there instead of run by the studio, and queued or running
 * runs can be cancelled. A call for a run the queue does not know (or another owner's) rejects
 * with a `QueueError` of reason `not-found`; refusals use its other reasons (`invalid-state`,
 * `invalid-decision`, `conflict`).
 */
export interface StudioQueue {
  status(runId: string, options?: StudioQueueScope): Promise<StudioQueueStatus>;
  decide(runId: string, results: DeferredResults, options?: StudioQueueScope): Promise<unknown>;
  recover(runId: string, options?: StudioQueueScope): Promise<unknown>;
  cancel(runId: string, reason?: string | { reason?: string; owner?: string }): Promise<unknown>;
}

/** What the studio tells `onError` about an internal error. */
export interface StudioErrorInfo {
  /** The ref the client's answer names (`internal error (ref …)`). */
  readonly ref: string;
  /** What failed: a request (its method and path) or a background run. */
  readonly where: string;
}

/** Options of {@link createStudio}. */
export interface StudioOptions {
  /** The run store the studio reads and resumes runs in. */
  readonly store: RunStore;
  /** The agents the studio may resume, replay and chat with (by name). */
  readonly agents?: Readonly<Record<string, StudioAgent>> | readonly StudioAgent[];
  /** Models a replay or the playground may pick, by name. */
  readonly models?: Readonly<Record<string, Model>>;
  /**
   * A run queue (golem/queue's `RunQueue`) over the same store: run details show where each run is
   * on it, decisions and resumes are queued for its workers (no registered agent needed), and
   * queued or running runs can be cancelled. The studio never closes it.
   */
  readonly queue?: StudioQueue;
  /** Scope the studio to this owner's runs (others are 404); runs it starts get this owner. */
  readonly owner?: string;
  /** A folder of eval report JSON files (`writeReport`). */
  readonly reports?: string;
  /** The API token (default: 32 random bytes, base64url). */
  readonly token?: string;
  /** Host names (besides loopback) the studio answers (DNS-rebinding protection). */
  readonly allowedHosts?: readonly string[];
  /** Host an OTLP/HTTP JSON endpoint at `POST /v1/traces` (default true). */
  readonly traces?: boolean;
  /** Spans kept in memory (default 50 000). */
  readonly maxSpans?: number;
  /** How often SSE streams poll the store, ms (default 500). */
  readonly pollMs?: number;
  /** The built app folder (default: the package's `dist/studio/app`). */
  readonly appDir?: string;
  /** Receives internal errors (never secrets); the client sees only a ref. */
  onError?(error: unknown, info: StudioErrorInfo): void;
}
