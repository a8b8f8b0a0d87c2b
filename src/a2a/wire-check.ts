/**
 * The parsers of A2A messages, tasks, stream events and JSON-RPC envelopes off the wire (a peer's
 * JSON, untrusted): each returns the typed value or throws `A2AProtocolError` naming the path.
 */
import {
  fail,
  record,
  str,
  optStr,
  optBool,
  optMeta,
  list,
  strings,
  compact,
  optInt,
} from './wire-read';
import type {
  Artifact,
  AuthenticationInfo,
  ListTasksParams,
  Message,
  Part,
  Role,
  SendMessageResult,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskPushNotificationConfig,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from './wire-types';
import type { RpcId, RpcResponse } from './rpc-types';
import { ROLES, TASK_STATES } from './wire-types';

/** Parses a task state name; a bad one throws `A2AProtocolError`. */
export function parseTaskState(value: unknown, path = 'state'): TaskState {
  const found = TASK_STATES.find((s) => s === value);
  if (found === undefined) fail(path, `one of ${TASK_STATES.join(', ')}`);
  return found;
}

function parseRole(value: unknown, path: string): Role {
  const found = ROLES.find((r) => r === value);
  if (found === undefined) fail(path, `one of ${ROLES.join(', ')}`);
  return found;
}

/** Parses one part (exactly one of text / data / url / raw). */
export function parsePart(value: unknown, path = 'part'): Part {
  const o = record(value, path);
  const common = compact({
    metadata: optMeta(o.metadata, `${path}.metadata`),
    filename: optStr(o.filename, `${path}.filename`),
    mediaType: optStr(o.mediaType ?? o.media_type, `${path}.mediaType`),
  });
  const kinds = ['text', 'data', 'url', 'raw'].filter((k) => o[k] !== undefined);
  if (kinds.length !== 1) fail(path, 'a part with exactly one of text, data, url, raw');
  if (o.text !== undefined) return { ...common, text: str(o.text, `${path}.text`) };
  if (o.url !== undefined) return { ...common, url: str(o.url, `${path}.url`) };
  if (o.raw !== undefined) return { ...common, raw: str(o.raw, `${path}.raw`) };
  return { ...common, data: o.data };
}

/** Parses a message off the wire; a bad one throws `A2AProtocolError`. */
export function parseMessage(value: unknown, path = 'message'): Message {
  const o = record(value, path);
  return compact({
    messageId: str(o.messageId ?? o.message_id, `${path}.messageId`),
    contextId: optStr(o.contextId ?? o.context_id, `${path}.contextId`) || undefined,
    taskId: optStr(o.taskId ?? o.task_id, `${path}.taskId`) || undefined,
    role: parseRole(o.role, `${path}.role`),
    parts: list(o.parts, `${path}.parts`, parsePart),
    metadata: optMeta(o.metadata, `${path}.metadata`),
    extensions:
      o.extensions === undefined ? undefined : strings(o.extensions, `${path}.extensions`),
    referenceTaskIds:
      o.referenceTaskIds === undefined
        ? undefined
        : strings(o.referenceTaskIds, `${path}.referenceTaskIds`),
  });
}

function parseStatus(value: unknown, path: string): TaskStatus {
  const o = record(value, path);
  return compact({
    state: parseTaskState(o.state, `${path}.state`),
    message: o.message === undefined ? undefined : parseMessage(o.message, `${path}.message`),
    timestamp: optStr(o.timestamp, `${path}.timestamp`),
  });
}

/** Parses an artifact (at least one part). */
export function parseArtifact(value: unknown, path = 'artifact'): Artifact {
  const o = record(value, path);
  const parts = list(o.parts, `${path}.parts`, parsePart);
  if (parts.length === 0) fail(`${path}.parts`, 'a non-empty array');
  return compact({
    artifactId: str(o.artifactId ?? o.artifact_id, `${path}.artifactId`),
    name: optStr(o.name, `${path}.name`),
    description: optStr(o.description, `${path}.description`),
    parts,
    metadata: optMeta(o.metadata, `${path}.metadata`),
    extensions:
      o.extensions === undefined ? undefined : strings(o.extensions, `${path}.extensions`),
  });
}

/** Parses a task off the wire; a bad one throws `A2AProtocolError`. */
export function parseTask(value: unknown, path = 'task'): Task {
  const o = record(value, path);
  return compact({
    id: str(o.id, `${path}.id`),
    contextId: str(o.contextId ?? o.context_id ?? '', `${path}.contextId`),
    status: parseStatus(o.status, `${path}.status`),
    artifacts: list(o.artifacts, `${path}.artifacts`, parseArtifact),
    history: list(o.history, `${path}.history`, parseMessage),
    metadata: optMeta(o.metadata, `${path}.metadata`),
  });
}

function parseStatusUpdate(value: unknown, path: string): TaskStatusUpdateEvent {
  const o = record(value, path);
  return compact({
    taskId: str(o.taskId ?? o.task_id, `${path}.taskId`),
    contextId: str(o.contextId ?? o.context_id ?? '', `${path}.contextId`),
    status: parseStatus(o.status, `${path}.status`),
    metadata: optMeta(o.metadata, `${path}.metadata`),
  });
}

function parseArtifactUpdate(value: unknown, path: string): TaskArtifactUpdateEvent {
  const o = record(value, path);
  return compact({
    taskId: str(o.taskId ?? o.task_id, `${path}.taskId`),
    contextId: str(o.contextId ?? o.context_id ?? '', `${path}.contextId`),
    artifact: parseArtifact(o.artifact, `${path}.artifact`),
    append: optBool(o.append, `${path}.append`),
    lastChunk: optBool(o.lastChunk ?? o.last_chunk, `${path}.lastChunk`),
    metadata: optMeta(o.metadata, `${path}.metadata`),
  });
}

/** Parses one stream event (`task` / `message` / `statusUpdate` / `artifactUpdate`). */
export function parseStreamResponse(value: unknown, path = 'result'): StreamResponse {
  const o = record(value, path);
  if (o.task !== undefined) return { task: parseTask(o.task, `${path}.task`) };
  if (o.message !== undefined) return { message: parseMessage(o.message, `${path}.message`) };
  const status = o.statusUpdate ?? o.status_update;
  if (status !== undefined)
    return { statusUpdate: parseStatusUpdate(status, `${path}.statusUpdate`) };
  const artifact = o.artifactUpdate ?? o.artifact_update;
  if (artifact !== undefined) {
    return { artifactUpdate: parseArtifactUpdate(artifact, `${path}.artifactUpdate`) };
  }
  return fail(path, 'one of task, message, statusUpdate, artifactUpdate');
}

/** Parses the result of `SendMessage` (`{ task }` or `{ message }`). */
export function parseSendMessageResult(value: unknown, path = 'result'): SendMessageResult {
  const o = record(value, path);
  if (o.task !== undefined) return { task: parseTask(o.task, `${path}.task`) };
  if (o.message !== undefined) return { message: parseMessage(o.message, `${path}.message`) };
  return fail(path, 'one of task, message');
}

function parseId(value: unknown, path: string): RpcId {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  return fail(path, 'a string, a number or null');
}

/**
 * Parses a JSON-RPC 2.0 response envelope (the `result` stays unknown: parse it with the parser of
 * the method). A malformed envelope throws `A2AProtocolError`.
 */
export function parseRpcResponse(value: unknown): RpcResponse {
  const o = record(value, 'response');
  if (o.jsonrpc !== '2.0') fail('response.jsonrpc', "'2.0'");
  const id = parseId(o.id ?? null, 'response.id');
  if (o.error !== undefined) {
    const e = record(o.error, 'response.error');
    if (typeof e.code !== 'number' || !Number.isInteger(e.code)) {
      fail('response.error.code', 'an integer');
    }
    return {
      jsonrpc: '2.0',
      id,
      error: compact({
        code: e.code,
        message: str(e.message ?? '', 'response.error.message'),
        data: e.data,
      }),
    };
  }
  if (!('result' in o)) fail('response', 'a response with result or error');
  return { jsonrpc: '2.0', id, result: o.result };
}

function parseAuthentication(value: unknown, path: string): AuthenticationInfo | undefined {
  if (value === undefined || value === null) return undefined;
  const o = record(value, path);
  const scheme = str(o.scheme, `${path}.scheme`);
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(scheme)) fail(`${path}.scheme`, 'an HTTP auth scheme');
  const credentials = optStr(o.credentials, `${path}.credentials`);
  if (credentials !== undefined && /[\r\n]/.test(credentials)) {
    fail(`${path}.credentials`, 'a single line');
  }
  return compact({ scheme, credentials: credentials || undefined });
}

/**
 * Parses a push notification config (`CreateTaskPushNotificationConfig` params, or the one inline
 * in a send's configuration); empty strings count as absent. The URL is only read here, not judged.
 */
export function parsePushConfig(value: unknown, path = 'params'): TaskPushNotificationConfig {
  const o = record(value, path);
  const url = str(o.url, `${path}.url`);
  if (url === '') fail(`${path}.url`, 'a non-empty URL');
  const token = optStr(o.token, `${path}.token`);
  if (token !== undefined && /[\r\n]/.test(token)) fail(`${path}.token`, 'a single line');
  return compact({
    tenant: optStr(o.tenant, `${path}.tenant`) || undefined,
    id: optStr(o.id, `${path}.id`) || undefined,
    taskId: optStr(o.taskId ?? o.task_id, `${path}.taskId`) || undefined,
    url,
    token: token || undefined,
    authentication: parseAuthentication(o.authentication, `${path}.authentication`),
  });
}

/** The most tasks one `ListTasks` page holds. */
export const MAX_LIST_PAGE_SIZE = 100;

/** The page size of `ListTasks` when the request names none. */
export const DEFAULT_LIST_PAGE_SIZE = 50;

/**
 * Parses `ListTasks` params: empty strings and `TASK_STATE_UNSPECIFIED` count as absent, a page
 * size over {@link MAX_LIST_PAGE_SIZE} is lowered to it, a bad timestamp or field throws.
 */
export function parseListTasksParams(value: unknown, path = 'params'): ListTasksParams {
  const o = value === undefined || value === null ? {} : record(value, path);
  const state =
    o.status === undefined || o.status === null || o.status === 'TASK_STATE_UNSPECIFIED'
      ? undefined
      : parseTaskState(o.status, `${path}.status`);
  const pageSize = optInt(o.pageSize, `${path}.pageSize`, 1);
  const after = optStr(o.statusTimestampAfter, `${path}.statusTimestampAfter`) || undefined;
  if (after !== undefined && Number.isNaN(Date.parse(after))) {
    fail(`${path}.statusTimestampAfter`, 'an ISO 8601 timestamp');
  }
  return compact({
    tenant: optStr(o.tenant, `${path}.tenant`) || undefined,
    contextId: optStr(o.contextId, `${path}.contextId`) || undefined,
    status: state,
    pageSize: pageSize === undefined ? undefined : Math.min(pageSize, MAX_LIST_PAGE_SIZE),
    pageToken: optStr(o.pageToken, `${path}.pageToken`) || undefined,
    historyLength: optInt(o.historyLength, `${path}.historyLength`, 0),
    statusTimestampAfter: after,
    includeArtifacts: optBool(o.includeArtifacts, `${path}.includeArtifacts`),
  });
}
