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
}
