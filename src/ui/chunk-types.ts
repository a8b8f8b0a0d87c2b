import type { Usage } from '../core/contract/usage';

/**
 * The chunks of the AI SDK UI message stream protocol (v1, header `x-vercel-ai-ui-message-stream:
 * v1`) that Golem writes: the shapes `useChat` and the `ai` package's `readUIMessageStream` read.
 * Declared here so `golem/ui` needs no dependency on the `ai` package.
 */

/** Why the assistant message ended, in the protocol's words. */
export type UIFinishReason =
  'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** One chunk of a UI message stream (the subset Golem produces). */
export type UIMessageChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: unknown }
  | { type: 'finish'; finishReason?: UIFinishReason; messageMetadata?: unknown }
  | { type: 'message-metadata'; messageMetadata: unknown }
  | { type: 'abort'; reason?: string }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | {
      type: 'tool-input-error';
      toolCallId: string;
      toolName: string;
      input: unknown;
      errorText: string;
    }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: 'error'; errorText: string }
  | { type: `data-${string}`; id?: string; data: unknown; transient?: boolean };

/** The `type` of a {@link UIMessageChunk}. */
export type UIMessageChunkType = UIMessageChunk['type'];

/**
 * The data part Golem writes when a streamed model attempt failed and was retried (or answered by
 * a fallback member): the parts of that step are void. `fromUIMessages` drops the step; a
 * renderer may hide it.
 */
export const DISCARDED_PART = 'data-turn-discarded';

/** The data part that marks a handoff: `{ from, to, callId }` (see the handoffs guide). */
export const HANDOFF_PART = 'data-handoff';

/** The message metadata Golem writes on `start` and `finish` (merged with your own). */
export interface GolemMessageMetadata {
  /** The stored run's id, when the agent has a run store (a paused run resumes by it). */
  runId?: string;
  /** Token usage of the run (for a resumed run: of the continuation). */
  usage?: Usage;
  /**
   * The calls a paused run waits on (`null` once the run no longer waits): approvals appear as
   * tool parts in state `approval-requested`, external calls as parts in `input-available`.
   */
  pending?: { approvals: string[]; external: string[] } | null;
  /** The stage a failed run failed at. */
  stage?: string;
}
