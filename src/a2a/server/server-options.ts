import type { IncomingMessage } from 'node:http';
import type { FetchLike, RunStore } from '../../core/index';
import type { AgentCardOptions } from './card';
import type { ServableAgent } from './servable-agent';

/** What {@link A2AServerOptions.card} may override on a generated card (everything but the URL). */
export type AgentCardOverrides = Omit<AgentCardOptions, 'url'>;

/**
 * Push notifications (A2A `CreateTaskPushNotificationConfig` and the configs sent with a message):
 * the server POSTs each status and artifact update of a task, as the stream event JSON, to every
 * config's URL. Configs are held in memory (at most 10 per task, owner-scoped like tasks) and do
 * not survive a restart.
 */
export interface PushNotificationOptions {
  /**
   * Whether the server may POST to `url` for task `taskId` (e.g. an allow-list of hosts: the URL
   * comes from the client, and a server that fetches any URL is an SSRF door). False: the config
   * is refused as invalid params and nothing is stored. Only http(s) URLs without credentials
   * ever reach it.
   */
  allow(url: URL, taskId: string): boolean | Promise<boolean>;
  /** The `fetch` deliveries use; default the platform's. */
  fetch?: FetchLike;
  /** How long one delivery may take, in ms; default 10 000. */
  timeoutMs?: number;
}

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
  /**
   * Enables push notifications (the card then says `capabilities.pushNotifications: true`).
   * Without it the push config methods answer PushNotificationNotSupported (-32003).
   */
  pushNotifications?: PushNotificationOptions;
  /**
   * While a stream (SSE) is open and silent, an SSE comment is written this often, in ms, so
   * proxies keep it open. Default 15 000; 0 disables.
   */
  keepAliveMs?: number;
  /**
   * Whether a stored task whose run is `running` but held by no live process (the server that ran
   * it stopped; its lease expired) is continued from its last checkpoint (`agent.resumeRun`) when
   * the task is first read (GetTask, SubscribeToTask, ListTasks, CancelTask). While another
   * process holds the run, the task reads WORKING. Default true; false leaves such tasks WORKING.
   */
  recover?: boolean;
}
