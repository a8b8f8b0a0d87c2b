/** A tool call that paused the run. */
export interface PendingToolCall {
  callId: string;
  toolName: string;
  /** Raw JSON arguments. */
  args: string;
  reason: string;
}

/** The calls that paused a run, grouped by what resolving them requires. */
export interface PendingToolCalls {
  /** Waiting for a human decision. */
  approvals: PendingToolCall[];
  /** Waiting for a result produced outside the run. */
  external: PendingToolCall[];
}

/** A human decision on one approval request. */
export interface Approval {
  approved: boolean;
  /** Shown to the model when denied. */
  reason?: string;
}

/** Resolutions of a paused run's calls, keyed by call id. */
export interface DeferredResults {
  approvals?: Record<string, Approval> | Map<string, Approval>;
  external?: Record<string, string> | Map<string, string>;
}
