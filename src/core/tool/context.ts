/**
 * Something a running tool reports before it returns: progress (`progress` of `total`, with an
 * optional message) or a log line (`level` as in syslog, e.g. `info`, `warning`; `data` is any
 * JSON value). Advisory; surfaced as `tool_progress` / `tool_log` run events.
 * @inline
 */
export type ToolUpdate =
  | { kind: 'progress'; progress: number; total?: number; message?: string }
  | { kind: 'log'; level: string; data: unknown; logger?: string };

/** What a tool execution receives besides its arguments. */
export interface ToolContext<Deps = unknown> {
  /** The run's dependency value, identical for every tool in the run. */
  readonly deps: Deps;
  /** Aborts when the run is cancelled or the tool's deadline passes. */
  readonly signal: AbortSignal;
  /** The id of the call being executed. */
  readonly callId: string;
  /** The name the model called. */
  readonly toolName: string;
  /** The raw JSON text of the arguments, exactly as the model sent it. */
  readonly rawArgs: string;
  /** True when this execution re-runs a call a human approved (deferred tools). */
  readonly approved: boolean;
  /** Corrections already fed back for this tool in the current loop execution. */
  readonly retry: number;
  /**
   * Reports progress or a log line of this execution to the run's observers (a `tool_progress`
   * or `tool_log` event). Present only while the run is observed; never throws.
   */
  readonly report?: (update: ToolUpdate) => void;
  /** The run's `owner` (the tenant or user key it was started with), when it has one. */
  readonly owner?: string;
  /** The stored conversation the run continues (its `conversation` option), when it has one. */
  readonly conversationId?: string;
}
