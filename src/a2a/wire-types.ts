/**
 * The A2A 1.0 JSON-RPC wire shapes, as `@a2a-js/sdk` 1.3.0 serialises them (its ts-proto `toJSON`):
 * enums travel as their names (`TASK_STATE_COMPLETED`, `ROLE_USER`), `oneof` fields as one present
 * key (a Part is `{ text }`, `{ data }`, `{ url }` or `{ raw }`; a stream event is `{ task }`,
 * `{ message }`, `{ statusUpdate }` or `{ artifactUpdate }`), and empty fields are omitted, so every
 * field a peer may leave out is optional here.
 */

/** The well-known path of the agent card, relative to the agent's base URL (no leading slash). */
export const CARD_PATH = '.well-known/agent-card.json';

/** The A2A protocol version this module implements (Major.Minor). */
export const PROTOCOL_VERSION = '1.0';

/** The HTTP header carrying the A2A protocol version of a request. */
export const VERSION_HEADER = 'A2A-Version';

/** The HTTP header listing the A2A extensions a request uses. */
export const EXTENSIONS_HEADER = 'A2A-Extensions';

/** The protocol binding name of the JSON-RPC interface in `supportedInterfaces`. */
export const JSONRPC_BINDING = 'JSONRPC';

/** The JSON-RPC method names of A2A 1.0. */
export const A2A_METHODS = {
  send: 'SendMessage',
  stream: 'SendStreamingMessage',
  getTask: 'GetTask',
  listTasks: 'ListTasks',
  cancelTask: 'CancelTask',
  subscribe: 'SubscribeToTask',
  getExtendedCard: 'GetExtendedAgentCard',
} as const;

/** One A2A 1.0 JSON-RPC method name. */
export type A2AMethod = (typeof A2A_METHODS)[keyof typeof A2A_METHODS];

/** JSON-RPC error codes: the reserved ones and the A2A-specific ones. */
export const A2A_ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotificationNotSupported: -32003,
  unsupportedOperation: -32004,
  contentTypeNotSupported: -32005,
  invalidAgentResponse: -32006,
  extendedCardNotConfigured: -32007,
  extensionSupportRequired: -32008,
  versionNotSupported: -32009,
} as const;

/** The task states, as their JSON names. */
export const TASK_STATES = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;

/** A task's lifecycle state. */
export type TaskState = (typeof TASK_STATES)[number];

/** States after which a task never changes again. */
export const TERMINAL_STATES: readonly TaskState[] = [
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];

/** States in which a task waits for the client (the next message resumes it). */
export const INTERRUPTED_STATES: readonly TaskState[] = [
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
];

/** The sender of a message. */
export type Role = 'ROLE_UNSPECIFIED' | 'ROLE_USER' | 'ROLE_AGENT';

/** The message roles, as their JSON names. */
export const ROLES: readonly Role[] = ['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'];

/** Free-form metadata attached to most objects. */
export type WireMetadata = Record<string, unknown>;

/** Fields every part may carry, whatever its content. */
export interface PartCommon {
  /** Optional metadata. */
  readonly metadata?: WireMetadata;
  /** Optional file name. */
  readonly filename?: string;
  /** Media (MIME) type of the content. */
  readonly mediaType?: string;
}

/** A text part. */
export interface TextPart extends PartCommon {
  /** The text. */
  readonly text: string;
}

/** A structured-data part (any JSON value). */
export interface DataPart extends PartCommon {
  /** The JSON value. */
  readonly data: unknown;
}

/** A file referenced by URL. */
export interface UrlPart extends PartCommon {
  /** The file's URL. */
  readonly url: string;
}

/** A file carried inline, base64-encoded. */
export interface RawPart extends PartCommon {
  /** The file's bytes, base64. */
  readonly raw: string;
}

/** One piece of message or artifact content: exactly one of `text`, `data`, `url`, `raw`. */
export type Part = TextPart | DataPart | UrlPart | RawPart;

/** One unit of communication between client and agent. */
export interface Message {
  /** Unique id chosen by the sender. */
  readonly messageId: string;
  /** The conversation this message belongs to. */
  readonly contextId?: string;
  /** The task this message belongs to (resumes or continues it). */
  readonly taskId?: string;
  /** Who sent it. */
  readonly role: Role;
  /** The content. */
  readonly parts: readonly Part[];
  /** Optional metadata. */
  readonly metadata?: WireMetadata;
  /** Extension URIs present in the message. */
  readonly extensions?: readonly string[];
  /** Other tasks this message refers to. */
  readonly referenceTaskIds?: readonly string[];
}

/** A task's status: its state, an optional agent message and when it was recorded. */
export interface TaskStatus {
  /** The state. */
  readonly state: TaskState;
  /** An optional message from the agent (e.g. what input is required). */
  readonly message?: Message;
  /** ISO 8601 timestamp. */
  readonly timestamp?: string;
}

/** An output of a task. */
export interface Artifact {
  /** Unique within the task. */
  readonly artifactId: string;
  /** Human-readable name. */
  readonly name?: string;
  /** Human-readable description. */
  readonly description?: string;
  /** The content (at least one part). */
  readonly parts: readonly Part[];
  /** Optional metadata. */
  readonly metadata?: WireMetadata;
  /** Extension URIs. */
  readonly extensions?: readonly string[];
}

/** The unit of work of A2A. */
export interface Task {
  /** Server-chosen id. */
  readonly id: string;
  /** The conversation the task belongs to. */
  readonly contextId: string;
  /** Current status. */
  readonly status: TaskStatus;
  /** Outputs so far. */
  readonly artifacts?: readonly Artifact[];
  /** Messages exchanged so far. */
  readonly history?: readonly Message[];
  /** Optional metadata. */
  readonly metadata?: WireMetadata;
}

/** A change of a task's status, sent on a stream. */
export interface TaskStatusUpdateEvent {
  /** The task. */
  readonly taskId: string;
  /** Its conversation. */
  readonly contextId: string;
  /** The new status. */
  readonly status: TaskStatus;
  /** Optional metadata. */
  readonly metadata?: WireMetadata;
}

/** A new (or appended) artifact, sent on a stream. */
export interface TaskArtifactUpdateEvent {
  /** The task. */
  readonly taskId: string;
  /** Its conversation. */
  readonly contextId: string;
  /** The artifact (chunk). */
  readonly artifact: Artifact;
  /** Append to the artifact with the same id sent before. */
  readonly append?: boolean;
  /** The last chunk of this artifact. */
  readonly lastChunk?: boolean;
  /** Optional metadata. */
  readonly metadata?: WireMetadata;
}

/** One event of a streaming response: exactly one key is present. */
export type StreamResponse =
  | { readonly task: Task }
  | { readonly message: Message }
  | { readonly statusUpdate: TaskStatusUpdateEvent }
  | { readonly artifactUpdate: TaskArtifactUpdateEvent };

/** The result of `SendMessage`: a task or a direct message. */
export type SendMessageResult = { readonly task: Task } | { readonly message: Message };

/** Options of a send request. */
export interface SendMessageConfiguration {
  /** Media types the client accepts for response parts. */
  readonly acceptedOutputModes?: readonly string[];
  /** Most recent history messages to return (0: none). */
  readonly historyLength?: number;
  /** Return at once instead of waiting for a terminal or interrupted state. */
  readonly returnImmediately?: boolean;
}

/** Params of `SendMessage` / `SendStreamingMessage`. */
export interface SendMessageParams {
  /** Optional tenant. */
  readonly tenant?: string;
  /** The message. */
  readonly message: Message;
  /** Options. */
  readonly configuration?: SendMessageConfiguration;
  /** Optional metadata. */
  readonly metadata?: WireMetadata;
}

/** Params of `GetTask`. */
export interface GetTaskParams {
  /** Optional tenant. */
  readonly tenant?: string;
  /** The task id. */
  readonly id: string;
  /** Most recent history messages to return. */
  readonly historyLength?: number;
}

/** Params of `CancelTask` and `SubscribeToTask`. */
export interface TaskIdParams {
  /** Optional tenant. */
  readonly tenant?: string;
  /** The task id. */
  readonly id: string;
  /** Optional metadata. */
  readonly metadata?: WireMetadata;
}

/** The JSON-RPC method names of A2A 1.0 push notification configs. */
export const A2A_PUSH_METHODS = {
  create: 'CreateTaskPushNotificationConfig',
  get: 'GetTaskPushNotificationConfig',
  list: 'ListTaskPushNotificationConfigs',
  delete: 'DeleteTaskPushNotificationConfig',
} as const;

/** How the server authenticates to a push notification receiver. */
export interface AuthenticationInfo {
  /** An HTTP authentication scheme (`Bearer`, `Basic`, …). */
  readonly scheme: string;
  /** The credentials (sent as `Authorization: <scheme> <credentials>`). */
  readonly credentials?: string;
}

/** A push notification config of a task (also the params of `CreateTaskPushNotificationConfig`). */
export interface TaskPushNotificationConfig {
  /** Optional tenant. */
  readonly tenant?: string;
  /** The config's id (the server picks one when empty). */
  readonly id?: string;
  /** The task (empty when sent inline with `SendMessage`). */
  readonly taskId?: string;
  /** Where the server POSTs the task's updates. */
  readonly url: string;
  /** A token unique to this task or session, sent back with every notification. */
  readonly token?: string;
  /** How the server authenticates to the receiver. */
  readonly authentication?: AuthenticationInfo;
}

/** Params of `GetTaskPushNotificationConfig` and `DeleteTaskPushNotificationConfig`. */
export interface TaskPushNotificationConfigParams {
  /** Optional tenant. */
  readonly tenant?: string;
  /** The task id. */
  readonly taskId: string;
  /** The config id. */
  readonly id: string;
}

/** Params of `ListTaskPushNotificationConfigs`. */
export interface ListTaskPushNotificationConfigsParams {
  /** Optional tenant. */
  readonly tenant?: string;
  /** The task id. */
  readonly taskId: string;
  /** Most configs to return. */
  readonly pageSize?: number;
  /** The `nextPageToken` of a previous call. */
  readonly pageToken?: string;
}

/** The result of `ListTaskPushNotificationConfigs`. */
export interface ListTaskPushNotificationConfigsResult {
  /** The configs. */
  readonly configs: readonly TaskPushNotificationConfig[];
  /** The token of the next page; empty when there is none. */
  readonly nextPageToken: string;
}

/** Params of `ListTasks`. */
export interface ListTasksParams {
  /** Optional tenant. */
  readonly tenant?: string;
  /** Only tasks of this context. */
  readonly contextId?: string;
  /** Only tasks in this state. */
  readonly status?: TaskState;
  /** Most tasks per page (1–100, default 50). */
  readonly pageSize?: number;
  /** The `nextPageToken` of a previous call. */
  readonly pageToken?: string;
  /** Most recent history messages per task. */
  readonly historyLength?: number;
  /** Only tasks whose status timestamp is at or after this ISO 8601 time. */
  readonly statusTimestampAfter?: string;
  /** Whether tasks carry their artifacts (default false). */
  readonly includeArtifacts?: boolean;
}

/** The result of `ListTasks`. */
export interface ListTasksResult {
  /** The page of tasks, newest status first. */
  readonly tasks: readonly Task[];
  /** The token of the next page; empty when there is none. */
  readonly nextPageToken: string;
  /** The page size used. */
  readonly pageSize: number;
  /** How many tasks match, over all pages. */
  readonly totalSize: number;
}
