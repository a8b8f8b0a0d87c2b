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
