// In a module of its own: `golem` exports this value, and importing golem should not load the
// continuation planner (durable/continuation.ts), which needs the run loop.

/** The `reason` of a pending call whose execution was interrupted by the end of its process. */
export const INTERRUPTED_CALL_REASON =
  'interrupted: the process stopped while this call was executing, so whether it took effect is unknown; approve to run it again, supply its result, or deny it';
