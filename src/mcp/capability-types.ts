import type { JsonSchema } from '../core/kit/json';
import type { Message } from '../core/contract/message';
import type { Model } from '../core/contract/model';
import type { ModelSettings } from '../core/contract/request';

/** Severity of an MCP log message (syslog levels, lowest first). */
export type McpLogLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** The MCP log levels, lowest first. */
export const MCP_LOG_LEVELS: readonly McpLogLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** A `notifications/message` from the server (untrusted text). */
export interface McpLogEvent {
  /** The client's name. */
  readonly server: string;
  readonly level: McpLogLevel;
  /** The server's logger name, when it gave one. */
  readonly logger?: string;
  /** Any JSON value. */
  readonly data: unknown;
}

/** A `notifications/resources/updated`: the resource at `uri` changed; read it again. */
export interface McpResourceUpdatedEvent {
  readonly server: string;
  readonly uri: string;
}

/** A list-changed notice (`resources`, `prompts` or `tools`). */
export interface McpListChangedEvent {
  readonly server: string;
  readonly list: 'tools' | 'resources' | 'prompts';
}

/** A root the client exposes to the server (`roots/list`): a `file://` URI and a label. */
export interface McpRoot {
  readonly uri: string;
  readonly name?: string;
}

/** A server's `sampling/createMessage`, converted to golem messages. */
export interface McpSamplingRequest {
  /** The client's name (which server asks). */
  readonly server: string;
  /** The conversation to complete: `user` and `assistant` messages (images as parts). */
  readonly messages: readonly Message[];
  /** The server's system prompt (untrusted), if it sent one and `systemPrompt` is `'server'`. */
  readonly systemPrompt?: string;
  /** The tokens the server asked for, after the client's cap. */
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  /** The server's model preferences, verbatim (hints only). */
  readonly modelPreferences?: unknown;
}

/** Serving a server's sampling requests with a golem model. */
export interface McpSamplingOptions {
  /** The model that answers. */
  model: Model;
  /**
   * Decides whether a request may run (a human in the loop, a policy). Returning `false` answers
   * the server with error code -1 (`the user rejected the sampling request`). Default: allow.
   */
  approve?: (request: McpSamplingRequest) => boolean | Promise<boolean>;
  /** Largest `maxTokens` granted; a larger request is capped. Default 4096. */
  maxTokens?: number;
  /** Requests served over the connection's lifetime; later ones are refused. Default 100. */
  maxRequests?: number;
  /** Deadline in ms for one request (approval included); default 120 000; 0 = none. */
  timeout?: number;
  /** Use the server's system prompt (`'server'`, default) or drop it (`'ignore'`). */
  systemPrompt?: 'server' | 'ignore';
  /** Settings for every request (the request's temperature and stop sequences take precedence). */
  modelSettings?: ModelSettings;
}

/** What a server asks the user for (`elicitation/create`; untrusted text). */
export interface McpElicitationRequest {
  readonly server: string;
  /** `form`: fill `requestedSchema`; `url`: visit `url` (out-of-band, e.g. a payment page). */
  readonly mode: 'form' | 'url';
  readonly message: string;
  /** `form`: a flat object schema of strings, numbers, booleans and enums. */
  readonly requestedSchema?: JsonSchema;
  /** `url`: the address to open, and the server's id for the elicitation. */
  readonly url?: string;
  readonly elicitationId?: string;
}

/** The user's answer to an elicitation. */
export type McpElicitationAnswer =
  | {
      action: 'accept';
      /** `form`: values for the requested fields; `url`: omit. */
      content?: Record<string, string | number | boolean | string[]>;
    }
  | { action: 'decline' }
  | { action: 'cancel' };

/** Answering a server's elicitation requests. */
export interface McpElicitationOptions {
  /**
   * Asks the user and returns the answer (required unless `pauseRun`). `signal` aborts when the
   * server cancels the request,
   * the deadline passes or the client closes. A throw answers the server with an error.
   */
  handler?: (
    request: McpElicitationRequest,
    ctx: { signal: AbortSignal },
  ) => McpElicitationAnswer | Promise<McpElicitationAnswer>;
  /**
   * Pause the run instead of answering at once: an elicitation that arrives while exactly one
   * bridged tool call of this client is in flight aborts that call, answers the server `cancel`,
   * and defers the call for approval (the agent needs `deferredTools: true`); its pending
   * approval's `reason` carries the elicitation (`mcpElicitationOf(pending)`). Give the user's
   * answer to `client.answerElicitation(callId, answer)` and resume with the call approved: the
   * tool runs again and the server's elicitation gets that answer. Elicitations that cannot pause
   * a call (none or several calls in flight, a re-run) go to `handler` (without one: `cancel`).
   * The server tool runs twice — use it for tools whose steps before the question can repeat.
   * Default false; without it, `handler` is required.
   */
  pauseRun?: boolean;
  /** Also accept URL-mode requests; default false (form mode only). */
  url?: boolean;
  /**
   * An accepted form answer that does not fit the server's `requestedSchema` (a missing required
   * field, a value out of range, a bad format, a field not asked for) is never sent as given:
   * `'error'` (default) answers the server with an error naming the fields and rules (not the
   * values); `'decline'` answers as if the user declined. Check answers in the handler with
   * `elicitationProblems` to ask the user again instead.
   */
  invalidAnswer?: 'error' | 'decline';
  /** Deadline in ms for one answer; default 600 000 (10 min); 0 = none. */
  timeout?: number;
}
