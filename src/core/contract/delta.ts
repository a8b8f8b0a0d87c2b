/**
 * A fragment of a streamed tool call; `id` and `name` come on a call's first fragment.
 * @inline
 */
export interface ToolCallDelta {
  /** Position of the call in the response; correlates fragments. */
  index: number;
  id?: string;
  name?: string;
  argsFragment?: string;
}

/**
 * A fragment of streamed reasoning.
 * @inline
 */
export interface ThinkingDelta {
  index: number;
  text?: string;
  signature?: string;
}

/** One streamed fragment. Advisory: the assembled response is canonical. */
export interface Delta {
  content?: string;
  toolCalls?: ToolCallDelta[];
  thinking?: ThinkingDelta[];
}
