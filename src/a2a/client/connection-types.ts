import type { Tool } from '../../core/index';
import type { AgentCard, Part, SendMessageResult, StreamResponse, Task } from '../wire-types';
import type { A2ACallOptions, A2ASendOptions, A2AToolOptions } from './options';

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
   * artifacts as text (data parts as JSON). A failed, rejected or canceled task, or one that
   * needs input, is fed back to the model as a tool failure.
   */
  asTool(options?: A2AToolOptions): Tool;
  /** Refuses every later call (nothing is held open between calls). */
  close(): void;
}
