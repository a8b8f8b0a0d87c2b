import type { Message } from '../contract/message';

/**
 * What a handoff's input filter receives: the conversation as the target agent would see it (the
 * system message left out: the target brings its own instructions), and who hands off to whom.
 * @inline
 */
export interface HandoffInput<Deps> {
  /** The conversation so far, the transfer call and its result included: read-only. */
  readonly messages: readonly Message[];
  /** The agent handing off. */
  readonly from: string;
  /** The agent taking over. */
  readonly to: string;
  readonly deps: Deps;
  readonly signal: AbortSignal;
}

/**
 * Rewrites what the target agent sees of the conversation when it takes over (drop tool chatter,
 * summarise). Its messages replace the conversation in the context the target's model is sent —
 * recorded like a compaction (`policy: 'handoff'`), so a resumed run sees the same; the run's
 * `messages` keep the originals. They must not hold a system message, and every tool call needs
 * its result.
 * @inline
 */
export type HandoffInputFilter<Deps = unknown> = (
  input: HandoffInput<Deps>,
) => readonly Message[] | Promise<readonly Message[]>;

/**
 * One handoff of a run: who handed off to whom, through which call.
 * @inline
 */
export interface HandoffRecord {
  /** The agent handing off. */
  from: string;
  /** The agent taking over. */
  to: string;
  /** The id of the transfer call. */
  callId: string;
}
