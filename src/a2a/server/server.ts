import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRecord } from '../../core/kit/guards';
import { parseUntrustedJson } from '../../core/kit/safe-json';
import { A2AProtocolError } from '../a2a-error';
import type { AgentCard } from '../card-types';
import type { RpcId } from '../rpc-types';
import { A2A_ERROR_CODES, CARD_PATH, PROTOCOL_VERSION } from '../wire-types';
import { agentCard } from './card';
import { configFail } from './config-fail';
import { replyJson, replyRpcError } from './http-reply';
import { readRequestBody } from '../../core/kit/node-http';
import { refusal, requestGuard } from './request-guard';
import { PushConfigs } from './push-configs';
import { PushDelivery } from './push-delivery';
import { dispatch, type DispatchContext, type PushContext } from './rpc-dispatch';
import type { ServableAgent } from './servable-agent';
import type {
  A2AServerOptions,
  AgentCardOverrides,
  PushNotificationOptions,
} from './server-options';
import { setStatus, TaskRegistry } from './task-registry';

/** A running A2A endpoint: its card(s) and a request handler. */
export interface A2AServer {
  /** The card of the (first) agent. */
  readonly card: AgentCard;
  /** Every agent's card by key ('' for a single agent). */
  readonly cards: Readonly<Record<string, AgentCard>>;
  /**
   * Handles a request (node:http, or Express middleware: `app.use(server.handle)`). Paths it does
   * not serve go to `next` when given, else 404.
   */
  readonly handle: (req: IncomingMessage, res: ServerResponse, next?: () => void) => Promise<void>;
  /** Cancels every running task (their runs are aborted). */
  close(): void;
}

interface Endpoint {
  readonly key: string;
  readonly rpcPath: string;
  readonly cardPath: string;
  readonly card: AgentCard;
  readonly context: DispatchContext;
}

const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_PUSH_TIMEOUT_MS = 10_000;

/** Where a single agent's card is also served: the origin's well-known path (RFC 8615). */
const ROOT_CARD_PATH = `/${CARD_PATH}`;

function isServable(value: unknown): value is ServableAgent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { run?: unknown }).run === 'function'
  );
}

function positive(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    configFail(option, `must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function nonNegative(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    configFail(option, `must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}

function pushOptions(value: unknown): PushNotificationOptions | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || typeof value.allow !== 'function') {
    configFail(
      'pushNotifications',
      'must be { allow(url, taskId) => boolean, fetch?, timeoutMs? } (allow decides which URLs the server POSTs to)',
    );
  }
  if (value.fetch !== undefined && typeof value.fetch !== 'function') {
    configFail('pushNotifications.fetch', 'must be a fetch function');
  }
  return value as unknown as PushNotificationOptions;
}

function baseUrl(value: unknown): URL {
  try {
    const url = new URL(String(value));
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  return configFail(
    'url',
    `must be the endpoint's absolute http(s) URL, e.g. "https://agents.example.com/a2a", got ${JSON.stringify(value)}`,
  );
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The path of a request (Express's `originalUrl` when mounted under a prefix). */
function requestPath(req: IncomingMessage): string {
  const raw = (req as { originalUrl?: unknown }).originalUrl;
  const url = typeof raw === 'string' ? raw : (req.url ?? '/');
  try {
    return trimSlash(new URL(url, 'http://localhost').pathname);
  } catch {
    return '';
  }
}

/**
 * Serves golem agents over A2A 1.0 (JSON-RPC binding): the card at `/.well-known/agent-card.json`
 * beside the endpoint, and `SendMessage`, `SendStreamingMessage` (SSE, with keep-alive comments),
 * `GetTask`, `ListTasks`, `CancelTask`, `SubscribeToTask`, and, with `pushNotifications`, the push
 * notification config methods. A message runs the agent on its text; the task completes with an
 * artifact holding the output (text, streamed in chunks when the agent streams, or data for
 * structured output); a run paused on approvals or external results is INPUT_REQUIRED and resumed
 * by the next message naming the task; with a store, a stored run no process runs any more is
 * continued when its task is read (`recover`). Bodies are bounded (413), browser origins and
 * loopback hosts checked (403), `authenticate` enforced (401), and a failing run or handler reports
 * only `internal error (ref …)`.
 */
export function createA2AServer(options: A2AServerOptions): A2AServer {
  if (!isRecord(options)) configFail('options', 'must be an object { agents, url, … }');
  const url = baseUrl(options.url);
  const base = trimSlash(url.pathname);
  const single = isServable(options.agents);
  const entries: [string, ServableAgent][] = single
    ? [['', options.agents as ServableAgent]]
    : Object.entries(options.agents as Record<string, unknown>).map(([key, agent]) => {
        if (!/^[A-Za-z0-9._-]+$/.test(key)) {
          configFail(`agents.${key}`, 'key must be a URL-safe name (letters, digits, . _ -)');
        }
        if (!isServable(agent)) configFail(`agents.${key}`, 'must be a golem Agent');
        return [key, agent];
      });
  if (entries.length === 0) configFail('agents', 'must hold at least one agent');
  const maxBody = positive('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BODY);
  const maxTasks = positive('maxTasks', options.maxTasks, 1000);
  const keepAliveMs = nonNegative('keepAliveMs', options.keepAliveMs, DEFAULT_KEEP_ALIVE_MS);
  const pushing = pushOptions(options.pushNotifications);
  const onError = options.onError;
  let push: PushContext | undefined;
  let delivery: PushDelivery | undefined;
  if (pushing !== undefined) {
    const configs = new PushConfigs(maxTasks);
    delivery = new PushDelivery(configs, {
      fetch: pushing.fetch ?? ((input, init) => fetch(input, init)),
      timeoutMs: positive(
        'pushNotifications.timeoutMs',
        pushing.timeoutMs,
        DEFAULT_PUSH_TIMEOUT_MS,
      ),
      onError,
    });
    push = { options: pushing, configs };
  }
  if (options.recover !== undefined && typeof options.recover !== 'boolean') {
    configFail('recover', 'must be a boolean');
  }
  const recover = options.recover ?? true;
  const tasks = new TaskRegistry(maxTasks, delivery?.observe);
  const guard = requestGuard(url, options.allowedOrigins ?? []);
  const endpoints = entries.map(([key, agent]): Endpoint => {
    const rpcPath = key === '' ? base : `${base === '/' ? '' : base}/${key}`;
    const overrides: AgentCardOverrides =
      typeof options.card === 'function' ? options.card(key, agent) : (options.card ?? {});
    const endpointUrl = new URL(url.href);
    endpointUrl.pathname = rpcPath;
    const card = agentCard(agent, {
      ...overrides,
      url: endpointUrl.href,
      capabilities: { ...overrides.capabilities, pushNotifications: push !== undefined },
    });
    return {
      key,
      rpcPath,
      cardPath: `${rpcPath === '/' ? '' : rpcPath}/${CARD_PATH}`,
      card,
      context: {
        tasks,
        agentKey: key,
        agent,
        store: options.store,
        onError,
        recover,
        push,
        keepAliveMs,
      },
    };
  });
  const first = endpoints[0] as Endpoint;

  const internal = (res: ServerResponse, id: RpcId, error: unknown): void => {
    const ref = randomUUID().slice(0, 8);
    try {
      onError?.(error, { ref });
    } catch {
      // A failing error hook must not keep the client from its answer.
    }
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    replyRpcError(res, 200, id, {
      code: A2A_ERROR_CODES.internalError,
      message: `internal error (ref ${ref})`,
    });
  };

  const serveRpc = async (endpoint: Endpoint, req: IncomingMessage, res: ServerResponse) => {
    const refused = refusal(req, guard);
    if (refused !== undefined) {
      replyRpcError(res, 403, null, { code: A2A_ERROR_CODES.invalidRequest, message: refused });
      return;
    }
    const verdict = options.authenticate === undefined ? true : await options.authenticate(req);
    if (verdict === false || verdict === '') {
      replyRpcError(
        res,
        401,
        null,
        { code: A2A_ERROR_CODES.invalidRequest, message: 'authentication required' },
        { 'www-authenticate': 'Bearer' },
      );
      return;
    }
    const owner = typeof verdict === 'string' ? verdict : undefined;
    const body = await readRequestBody(req, maxBody);
    if ('tooLarge' in body) {
      replyRpcError(
        res,
        413,
        null,
        {
          code: A2A_ERROR_CODES.invalidRequest,
          message: `request body exceeds ${String(maxBody)} bytes`,
        },
        { connection: 'close' },
      );
      return;
    }
    let message: unknown;
    try {
      message = parseUntrustedJson(body.text, { maxLength: maxBody });
    } catch {
      replyRpcError(res, 200, null, {
        code: A2A_ERROR_CODES.parseError,
        message: 'parse error: the body is not valid JSON',
      });
      return;
    }
    const envelope = rpcEnvelope(message);
    if ('error' in envelope) {
      replyRpcError(res, 200, envelope.id, {
        code: A2A_ERROR_CODES.invalidRequest,
        message: envelope.error,
      });
      return;
    }
    const { id, method, params } = envelope;
    const version = req.headers['a2a-version'];
    const requested = (typeof version === 'string' ? version : '').trim() || '0.3';
    if (requested !== PROTOCOL_VERSION && requested !== '1') {
      replyRpcError(res, 200, id, {
        code: A2A_ERROR_CODES.versionNotSupported,
        message: `A2A version ${requested.slice(0, 20)} is not supported: send the header A2A-Version: ${PROTOCOL_VERSION}`,
      });
      return;
    }
    try {
      await dispatch(endpoint.context, res, id, method, params, owner);
    } catch (error) {
      if (error instanceof A2AProtocolError && !res.headersSent) {
        replyRpcError(res, 200, id, {
          code: error.code,
          message: error.message,
          ...(error.data !== undefined && { data: error.data }),
        });
        return;
      }
      internal(res, id, error);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, next?: () => void) => {
    const path = requestPath(req);
    for (const endpoint of endpoints) {
      if (path === endpoint.cardPath || (single && path === ROOT_CARD_PATH)) {
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          res.writeHead(405, { allow: 'GET, HEAD' }).end();
          return;
        }
        replyJson(res, 200, endpoint.card, { 'cache-control': 'public, max-age=300' });
        return;
      }
      if (path === endpoint.rpcPath) {
        if (req.method !== 'POST') {
          res.writeHead(405, { allow: 'POST' }).end();
          return;
        }
        try {
          await serveRpc(endpoint, req, res);
        } catch (error) {
          internal(res, null, error);
        }
        return;
      }
    }
    if (next !== undefined) next();
    else res.writeHead(404).end();
  };

  return {
    card: first.card,
    cards: Object.fromEntries(endpoints.map((e) => [e.key, e.card])),
    handle,
    close: () => {
      for (const record of tasks.all()) {
        if (record.controller === undefined) continue;
        const controller = record.controller;
        record.controller = undefined;
        setStatus(record, 'TASK_STATE_CANCELED');
        controller.abort();
      }
    },
  };
}

type Envelope =
  | { readonly id: RpcId; readonly method: string; readonly params: unknown }
  | { readonly id: RpcId; readonly error: string };

function rpcEnvelope(value: unknown): Envelope {
  if (Array.isArray(value)) return { id: null, error: 'batch requests are not supported' };
  if (!isRecord(value)) return { id: null, error: 'the request must be a JSON-RPC 2.0 object' };
  const rawId = value.id;
  const id: RpcId = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
  if (value.jsonrpc !== '2.0') return { id, error: 'jsonrpc must be "2.0"' };
  if (typeof rawId !== 'string' && typeof rawId !== 'number') {
    return { id, error: 'id must be a string or a number' };
  }
  if (typeof value.method !== 'string' || value.method === '') {
    return { id, error: 'method must be a non-empty string' };
  }
  return { id, method: value.method, params: value.params };
}
