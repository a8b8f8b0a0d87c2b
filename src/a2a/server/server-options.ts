import type { IncomingMessage } from 'node:http';
import type { RunStore } from '../../core/index';
import type { AgentCardOptions } from './card';
import type { ServableAgent } from './servable-agent';

/** What {@link A2AServerOptions.card} may override on a generated card (everything but the URL). */
export type AgentCardOverrides = Omit<AgentCardOptions, 'url'>;

/** Options of `createA2AServer`. */
export interface A2AServerOptions {
  /**
   * The agent to serve, or several by key: each key is served at `<url>/<key>` with its own card
   * at `<url>/<key>/.well-known/agent-card.json`.
   */
  agents: ServableAgent | Readonly<Record<string, ServableAgent>>;
  /** The public absolute URL of the JSON-RPC endpoint (its card is served beside it). */
  url: string;
  /** Overrides of the generated card(s); a function receives the agent's key ('' for one agent). */
  card?: AgentCardOverrides | ((key: string, agent: ServableAgent) => AgentCardOverrides);
  /**
   * Checkpoints runs here (else in each agent's own store, if any): task ids are then stored run
   * ids and a task's `contextId` is the stored conversation.
   */
  store?: RunStore;
  /**
   * Decides whether a JSON-RPC request may proceed (e.g. checks a bearer token the card's
   * `securitySchemes` declare); false → 401. A string is the caller's owner key: its tasks are
   * visible to it alone (others get TaskNotFound) and its stored runs carry that `owner`. The card
   * itself is public. Default: everyone, unscoped.
   */
  authenticate?: (req: IncomingMessage) => boolean | string | Promise<boolean | string>;
  /** Largest accepted request body in bytes; larger ones get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Origins of browser pages allowed to call (besides the endpoint's own). Default none. */
  allowedOrigins?: readonly string[];
  /** Most tasks kept in memory; past it the oldest finished ones are forgotten. Default 1000. */
  maxTasks?: number;
  /**
   * Told about every failed run and internal error, with the reference the client sees (the
   * client only gets `internal error (ref …)`). Default: nothing.
   */
  onError?: (error: unknown, info: { taskId?: string; ref: string }) => void;
}
