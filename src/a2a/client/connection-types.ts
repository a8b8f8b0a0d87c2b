import type { Agent, Tool } from '../../core/index';
import type { AgentCard } from '../card-types';
import type { Part, SendMessageResult, StreamResponse, Task } from '../wire-types';
import type {
  A2AAgentOptions,
  A2AAnswer,
  A2ACallOptions,
  A2ASendOptions,
  A2AToolOptions,
} from './options';
import type { PendingA2ATask } from './pending-task';

/** What to send: a text, or the message parts themselves. */
export type A2AInput = string | readonly Part[];

/** A connected remote A2A agent (A2A 1.0, JSON-RPC binding). */
export interface A2AConnection {
  /** The agent card read at connect time. */
  readonly card: AgentCard;
  /** The JSON-RPC endpoint the calls go to (from the card's JSONRPC 1.0 interface). */
  readonly endpoint: string;
  /**
   * Sends a user message (`SendMessage`) and waits for the task to finish or to need input; the
   * result is the task, or the agent's direct reply message.
   */
  send(input: A2AInput, options?: A2ASendOptions): Promise<SendMessageResult>;
  /**
   * Sends a user message (`SendStreamingMessage`) and yields the task snapshot, status and artifact
   * updates until a final or input-required state (or a direct reply message). Aborting the signal
   * closes the request and sends `CancelTask` for the task.
   */
  stream(input: A2AInput, options?: A2ASendOptions): AsyncIterable<StreamResponse>;
  /** Reads a task (`GetTask`). */
  getTask(id: string, options?: A2ACallOptions): Promise<Task>;
  /** Cancels a task (`CancelTask`); resolves to the task as the agent left it. */
  cancelTask(id: string, options?: A2ACallOptions): Promise<Task>;
  /**
   * The remote agent as a golem tool taking `{ message: string }` and returning the task's
   * artifacts as text (data parts as JSON). A task that needs input pauses the run on the call
   * (answer it with {@link A2AConnection.answer}); a failed, rejected or canceled task is fed back
   * to the model as a tool failure.
   */
  asTool(options?: A2AToolOptions): Tool;
  /**
   * Answers the remote task a paused call waits for (`call`: a `PendingToolCall` of the paused
   * run's `pending.external`, or a `pendingA2ATask`) and follows the task: `done` with the text to
   * resume the golem run with (`agent.resume(state, { external: { [callId]: answer.result } })`),
   * or the remote agent's next question. Aborting the signal cancels the remote task.
   */
  answer(
    call: { readonly reason: string } | PendingA2ATask,
    reply: A2AInput,
    options?: A2ACallOptions,
  ): Promise<A2AAnswer>;
  /**
   * The remote agent as a golem `Agent` (text output): run it, or list it in another agent's
   * `handoffs`. Each run sends the conversation's new user messages and answers with the remote
   * reply; the remote context (and a task waiting for input) continues across runs of a stored
   * conversation or a given history.
   */
  asAgent(options?: A2AAgentOptions): Agent;
  /** Refuses every later call (nothing is held open between calls). */
  close(): void;
}
