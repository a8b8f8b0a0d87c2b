import { GolemError, hasKind } from '../core/index';
import { isArrayValue, isRecord } from '../core/kit/guards';
import type {
  AgentCapabilities,
  AgentCard,
  AgentInterface,
  AgentSkill,
  Artifact,
  AuthenticationInfo,
  ListTasksParams,
  Message,
  Part,
  Role,
  RpcId,
  RpcResponse,
  SecurityRequirement,
  SecurityScheme,
  SendMessageResult,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskPushNotificationConfig,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
  WireMetadata,
} from './wire-types';
import { A2A_ERROR_CODES, ROLES, TASK_STATES } from './wire-types';

/**
 * What an A2A failure carries: the JSON-RPC `code` (the peer's, or the one this module chose for
 * a malformed or refused exchange) and the error's `data` (untrusted when it came from a peer).
 * Every error `golem/a2a` throws about the wire is a `GolemError` of kind `A2AProtocolError`
 * with these fields; {@link isA2AError} narrows to it.
 */
export interface A2AFailure {
  /** The error's kind. */
  readonly kind: 'A2AProtocolError';
  /** The JSON-RPC error code, e.g. -32001 (task not found). */
  readonly code: number;
  /** The JSON-RPC error data, if any. */
  readonly data: unknown;
}

/**
 * A wire failure: a malformed request or response, or a JSON-RPC error of the peer. Its class is
 * internal to `src/a2a`; callers check it with {@link isA2AError} (or `hasKind(error,
 * 'A2AProtocolError')`). `code` is the JSON-RPC code, `data` the error data.
 */
export class A2AProtocolError extends GolemError implements A2AFailure {
  declare readonly kind: 'A2AProtocolError';
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The JSON-RPC error data, if any. */
  readonly data: unknown;

  /** Builds the error; `code` defaults to invalid-params. */
  constructor(message: string, code: number = A2A_ERROR_CODES.invalidParams, data?: unknown) {
    super('A2AProtocolError', message);
    this.code = code;
    this.data = data;
  }
}

/**
 * Whether `value` is an A2A wire failure (a malformed answer, a refused request, or the peer's
 * JSON-RPC error), from any copy of the package.
 */
export function isA2AError(value: unknown): value is GolemError & A2AFailure {
  return hasKind(value, 'A2AProtocolError');
}

function fail(path: string, expected: string, code?: number): never {
  throw new A2AProtocolError(`A2A: ${path} must be ${expected}`, code);
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) fail(path, 'an object');
  return value;
}

function str(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, 'a string');
  return value;
}

function optStr(value: unknown, path: string): string | undefined {
  return value === undefined || value === null ? undefined : str(value, path);
}

function optBool(value: unknown, path: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') fail(path, 'a boolean');
  return value;
}

function optMeta(value: unknown, path: string): WireMetadata | undefined {
  return value === undefined || value === null ? undefined : record(value, path);
}

function list<T>(value: unknown, path: string, item: (v: unknown, p: string) => T): T[] {
  if (value === undefined || value === null) return [];
  if (!isArrayValue(value)) fail(path, 'an array');
  return value.map((v, i) => item(v, `${path}[${String(i)}]`));
}

function strings(value: unknown, path: string): string[] {
  return list(value, path, str);
}

/** Drops `undefined` members so parsed objects keep the "omitted when empty" JSON form. */
function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = v;
  return out as T;
}

/** Parses a task state name; a bad one throws {@link A2AProtocolError}. */
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

/** Parses a message off the wire; a bad one throws {@link A2AProtocolError}. */
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

/** Parses a task off the wire; a bad one throws {@link A2AProtocolError}. */
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

function parseInterface(value: unknown, path: string): AgentInterface {
  const o = record(value, path);
  return compact({
    url: str(o.url, `${path}.url`),
    protocolBinding: str(o.protocolBinding, `${path}.protocolBinding`),
    tenant: optStr(o.tenant, `${path}.tenant`),
    protocolVersion: str(o.protocolVersion, `${path}.protocolVersion`),
  });
}

function parseSkill(value: unknown, path: string): AgentSkill {
  const o = record(value, path);
  return compact({
    id: str(o.id, `${path}.id`),
    name: str(o.name, `${path}.name`),
    description: str(o.description ?? '', `${path}.description`),
    tags: strings(o.tags, `${path}.tags`),
    examples: o.examples === undefined ? undefined : strings(o.examples, `${path}.examples`),
    inputModes:
      o.inputModes === undefined ? undefined : strings(o.inputModes, `${path}.inputModes`),
    outputModes:
      o.outputModes === undefined ? undefined : strings(o.outputModes, `${path}.outputModes`),
    securityRequirements:
      o.securityRequirements === undefined
        ? undefined
        : list(o.securityRequirements, `${path}.securityRequirements`, parseRequirement),
  });
}

function parseRequirement(value: unknown, path: string): SecurityRequirement {
  const o = record(value, path);
  if (o.schemes === undefined) return {};
  const schemes: Record<string, { list: string[] }> = {};
  for (const [name, scopes] of Object.entries(record(o.schemes, `${path}.schemes`))) {
    const s = record(scopes, `${path}.schemes.${name}`);
    schemes[name] = { list: strings(s.list, `${path}.schemes.${name}.list`) };
  }
  return { schemes };
}

function parseScheme(value: unknown, path: string): SecurityScheme {
  const o = record(value, path);
  if (o.apiKeySecurityScheme !== undefined) {
    const s = record(o.apiKeySecurityScheme, `${path}.apiKeySecurityScheme`);
    return {
      apiKeySecurityScheme: compact({
        description: optStr(s.description, `${path}.description`),
        location: str(s.location, `${path}.apiKeySecurityScheme.location`),
        name: str(s.name, `${path}.apiKeySecurityScheme.name`),
      }),
    };
  }
  if (o.httpAuthSecurityScheme !== undefined) {
    const s = record(o.httpAuthSecurityScheme, `${path}.httpAuthSecurityScheme`);
    return {
      httpAuthSecurityScheme: compact({
        description: optStr(s.description, `${path}.description`),
        scheme: str(s.scheme, `${path}.httpAuthSecurityScheme.scheme`),
        bearerFormat: optStr(s.bearerFormat, `${path}.httpAuthSecurityScheme.bearerFormat`),
      }),
    };
  }
  for (const key of ['oauth2SecurityScheme', 'openIdConnectSecurityScheme', 'mtlsSecurityScheme']) {
    if (o[key] !== undefined) return { [key]: record(o[key], `${path}.${key}`) } as SecurityScheme;
  }
  return fail(path, 'a security scheme with one known kind');
}

function parseCapabilities(value: unknown, path: string): AgentCapabilities {
  const o = record(value, path);
  return compact({
    streaming: optBool(o.streaming, `${path}.streaming`),
    pushNotifications: optBool(o.pushNotifications, `${path}.pushNotifications`),
    extensions:
      o.extensions === undefined
        ? undefined
        : list(o.extensions, `${path}.extensions`, (v, p) => {
            const e = record(v, p);
            return compact({
              uri: str(e.uri, `${p}.uri`),
              description: optStr(e.description, `${p}.description`),
              required: optBool(e.required, `${p}.required`),
              params: optMeta(e.params, `${p}.params`),
            });
          }),
    extendedAgentCard: optBool(o.extendedAgentCard, `${path}.extendedAgentCard`),
  });
}

/** Parses an agent card; a bad one throws {@link A2AProtocolError}. */
export function parseCard(value: unknown, path = 'card'): AgentCard {
  const o = record(value, path);
  let schemes: Record<string, SecurityScheme> | undefined;
  if (o.securitySchemes !== undefined) {
    schemes = {};
    for (const [name, s] of Object.entries(record(o.securitySchemes, `${path}.securitySchemes`))) {
      schemes[name] = parseScheme(s, `${path}.securitySchemes.${name}`);
    }
  }
  const provider = o.provider === undefined ? undefined : record(o.provider, `${path}.provider`);
  return compact({
    name: str(o.name, `${path}.name`),
    description: str(o.description ?? '', `${path}.description`),
    supportedInterfaces: list(o.supportedInterfaces, `${path}.supportedInterfaces`, parseInterface),
    provider:
      provider === undefined
        ? undefined
        : {
            url: str(provider.url, `${path}.provider.url`),
            organization: str(provider.organization, `${path}.provider.organization`),
          },
    version: str(o.version ?? '', `${path}.version`),
    documentationUrl: optStr(o.documentationUrl, `${path}.documentationUrl`),
    capabilities:
      o.capabilities === undefined
        ? undefined
        : parseCapabilities(o.capabilities, `${path}.capabilities`),
    securitySchemes: schemes,
    securityRequirements:
      o.securityRequirements === undefined
        ? undefined
        : list(o.securityRequirements, `${path}.securityRequirements`, parseRequirement),
    defaultInputModes: strings(o.defaultInputModes, `${path}.defaultInputModes`),
    defaultOutputModes: strings(o.defaultOutputModes, `${path}.defaultOutputModes`),
    skills: list(o.skills, `${path}.skills`, parseSkill),
    signatures:
      o.signatures === undefined
        ? undefined
        : list(o.signatures, `${path}.signatures`, (v, p) => record(v, p)),
    iconUrl: optStr(o.iconUrl, `${path}.iconUrl`),
  });
}

function parseId(value: unknown, path: string): RpcId {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  return fail(path, 'a string, a number or null');
}

/**
 * Parses a JSON-RPC 2.0 response envelope (the `result` stays unknown: parse it with the parser of
 * the method). A malformed envelope throws {@link A2AProtocolError}.
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

function optInt(value: unknown, path: string, min: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    fail(path, min === 0 ? 'a non-negative integer' : `an integer of at least ${String(min)}`);
  }
  return value;
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
