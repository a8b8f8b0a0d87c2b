import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve as resolvePath } from 'node:path';
import {
  ConfigError,
  hasKind,
  loadRun,
  type RunRecord,
  type RunStore,
  type StoredRun,
} from '../core/index';
import { isRecord } from '../core/kit/guards';
import { pipeChat, type ChatAgent, type NodeRequestLike } from '../ui/index';
import type {
  DecisionsBody,
  ReplayBody,
  RunPage,
  RunSummary,
  StudioAgentInfo,
  StudioInfo,
} from './api-types';
import { compareFiles, listReports, loadReport } from './eval-reports';
import { hostRefusal, readBody, replyError, replyJson, tokenMatches } from './http-io';
import { continueAfterResults } from './continue-middleware';
import { modelOverride } from './model-override';
import { otlpSpans } from './otlp-json';
import { replayStart } from './replay-history';
import { canResume, runDetail } from './run-detail';
import { summarizeRow } from './run-summary';
import { SpanStore } from './span-store';
import { serveStatic } from './static-files';
import type { StudioAgent, StudioOptions } from './studio-options';
import { openPoller, type SsePoller } from './studio-sse';

/** A running studio: its token, its request handler, and `close`. */
export interface Studio {
  /** The API token (`Authorization: Bearer <token>`; `?token=` on SSE streams). */
  readonly token: string;
  /**
   * Handles a request (node:http, or Express middleware). With `next`, paths the studio does not
   * serve (non-GET requests outside its API) go there.
   */
  handle(req: IncomingMessage, res: ServerResponse, next?: () => void): Promise<void>;
  /** Ends the live streams and waits for the runs the studio started. */
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
/** Rows a runs query reads at most (the `total` cap). */
const READ_CAP = 5000;
const VERSION = '0.1.0';

function fail(option: string, problem: string): never {
  throw new ConfigError(`createStudio: ${option} ${problem}`, { component: 'studio', option });
}

function agentsOf(value: StudioOptions['agents']): Map<string, StudioAgent> {
  const map = new Map<string, StudioAgent>();
  const list = value === undefined ? [] : Array.isArray(value) ? value : Object.values(value);
  for (const agent of list as readonly StudioAgent[]) {
    if (!isRecord(agent) || typeof agent.run !== 'function' || typeof agent.name !== 'string')
      fail('agents', 'must hold golem Agents');
    map.set(agent.name, agent);
  }
  return map;
}

function positive(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) fail(option, 'must be a positive integer');
  return value;
}

function isNotFound(error: unknown): boolean {
  return hasKind(error, 'StoreError') && (error as { reason?: unknown }).reason === 'not-found';
}

function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1];
}

function intParam(value: string | null, fallback: number, max: number): number {
  if (value === null || !/^\d+$/.test(value)) return fallback;
  return Math.min(Number(value), max);
}

function timeParam(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function infoOf(agent: StudioAgent): StudioAgentInfo {
  const d = agent.describe();
  return {
    name: d.name,
    ...(d.description !== undefined && { description: d.description }),
    tools: d.tools.map((t) => ({ name: t.name, description: t.description })),
    handoffs: [...d.handoffs],
    structuredOutput: d.output !== undefined,
    streaming: d.streaming,
    deferredTools: d.deferredTools,
  };
}

function stringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
}

/** The decisions body checked, or why it is refused. */
function decisionsOf(body: unknown): DecisionsBody | string {
  if (!isRecord(body)) return 'the body must be { approvals?, external? }';
  const { approvals, external } = body;
  if (approvals !== undefined) {
    if (!isRecord(approvals)) return 'approvals must be { callId: { approved, reason? } }';
    for (const value of Object.values(approvals)) {
      if (!isRecord(value) || typeof value.approved !== 'boolean')
        return 'approvals must be { callId: { approved, reason? } }';
      if (value.reason !== undefined && typeof value.reason !== 'string')
        return 'an approval reason must be a string';
    }
  }
  if (external !== undefined && !stringRecord(external)) return 'external must be { callId: text }';
  return body;
}

function replayOf(body: unknown): ReplayBody | string {
  if (!isRecord(body)) return 'the body must be { fromTurn, prompt?, model?, toolResults? }';
  if (typeof body.fromTurn !== 'number') return 'fromTurn must be a number';
  if (body.prompt !== undefined && typeof body.prompt !== 'string') return 'prompt must be text';
  if (body.model !== undefined && typeof body.model !== 'string') return 'model must be a name';
  if (body.toolResults !== undefined && !stringRecord(body.toolResults))
    return 'toolResults must be { callId: text }';
  return body as unknown as ReplayBody;
}

/**
 * Golem Studio's server: the studio app's static files and its JSON API over a run store — runs
 * (list, detail with a derived timeline, live SSE streams), actions (decisions on paused runs,
 * resuming interrupted ones, replays from a checkpoint as new runs), a playground chat (golem/ui's
 * stream), eval reports, and an OTLP/HTTP JSON trace endpoint. Every `/api` and `/v1` request
 * needs the token; Host and Origin are checked (403), bodies bounded (413), and internal errors
 * answer only `internal error (ref …)`.
 */
export function createStudio(options: StudioOptions): Studio {
  if (!isRecord(options)) fail('options', 'must be an object { store, … }');
  const store: RunStore = options.store;
  if (!isRecord(store) || typeof store.listRuns !== 'function')
    fail('store', 'must be a golem RunStore');
  if (
    options.token !== undefined &&
    (typeof options.token !== 'string' || options.token.length < 16)
  )
    fail('token', 'must be a string of at least 16 characters');
  const token = options.token ?? randomBytes(32).toString('base64url');
  const agents = agentsOf(options.agents);
  const models = new Map(Object.entries(options.models ?? {}));
  const owner = options.owner;
  const traces = options.traces ?? true;
  const spans = new SpanStore(positive('maxSpans', options.maxSpans, 50_000));
  const pollMs = positive('pollMs', options.pollMs, 500);
  const allowedHosts = new Set((options.allowedHosts ?? []).map((h) => h.trim().toLowerCase()));
  const appDir = options.appDir ?? resolvePath(__dirname, '../../studio/app');
  const reports = options.reports;
  const pollers = new Set<SsePoller>();
  const background = new Set<Promise<void>>();
  let closed = false;

  const report = (error: unknown, where: string): string => {
    const ref = randomUUID().slice(0, 8);
    try {
      options.onError?.(error, { ref, where });
    } catch {
      // a failing hook must not keep the client from its answer
    }
    return ref;
  };

  const startBackground = (where: string, work: () => Promise<unknown>): void => {
    const task = work().then(
      () => undefined,
      (error: unknown) => void report(error, where),
    );
    background.add(task);
    void task.finally(() => background.delete(task));
  };

  const visible = (row: StoredRun): boolean => owner === undefined || row.owner === owner;

  const readRows = async (filter: {
    agent?: string;
    status?: string[];
    owner?: string;
  }): Promise<StoredRun[]> => {
    const rows = await store.listRuns({ ...filter, limit: READ_CAP });
    return rows.filter(visible).sort((a, b) => b.updatedAt - a.updatedAt);
  };

  const scopedOwner = (asked: string | null): string | undefined | false => {
    if (owner === undefined) return asked === null || asked === '' ? undefined : asked;
    return asked === null || asked === '' || asked === owner ? owner : false;
  };

  const rowFilter = (query: URLSearchParams) => {
    const agent = query.get('agent') ?? '';
    const status = (query.get('status') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const who = scopedOwner(query.get('owner'));
    return {
      filter: {
        ...(agent !== '' && { agent }),
        ...(status.length > 0 && { status }),
        ...(typeof who === 'string' && { owner: who }),
      },
      none: who === false,
    };
  };

  const runsPage = async (query: URLSearchParams): Promise<RunPage> => {
    const { filter, none } = rowFilter(query);
    if (none) return { runs: [], total: 0 };
    const since = timeParam(query.get('since'));
    const until = timeParam(query.get('until'));
    const q = (query.get('q') ?? '').trim().toLowerCase();
    const limit = Math.max(1, intParam(query.get('limit'), 50, 200));
    const offset = intParam(query.get('offset'), 0, Number.MAX_SAFE_INTEGER);
    const rows = (await readRows(filter)).filter(
      (row) =>
        (since === undefined || row.updatedAt >= since) &&
        (until === undefined || row.updatedAt <= until) &&
        (q === '' ||
          row.id.toLowerCase().includes(q) ||
          row.agent.toLowerCase().includes(q) ||
          (row.conversationId ?? '').toLowerCase().includes(q)),
    );
    const now = Date.now();
    const page = rows.slice(offset, offset + limit).map((row) => summarizeRow(row, now));
    return {
      runs: page,
      total: rows.length,
      ...(offset + limit < rows.length && { nextOffset: offset + limit }),
    };
  };

  /** The run `id` the studio may see, or undefined (unknown, or another owner's). */
  const findRun = async (id: string): Promise<RunRecord | undefined> => {
    try {
      return await loadRun(store, id, owner === undefined ? {} : { owner });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  };

  const detailOf = (record: RunRecord) =>
    runDetail(record, spans.ofRun(record.id), Date.now(), agents.has(record.agent));

  const readJson = async (
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ value: unknown } | undefined> => {
    const body = await readBody(req, MAX_BODY);
    if ('tooLarge' in body) {
      replyError(res, 413, `request body exceeds ${String(MAX_BODY)} bytes`, {
        connection: 'close',
      });
      return undefined;
    }
    try {
      return { value: body.text === '' ? {} : (JSON.parse(body.text) as unknown) };
    } catch {
      replyError(res, 400, 'the body is not valid JSON');
      return undefined;
    }
  };

  const agentFor = (res: ServerResponse, record: RunRecord): StudioAgent | undefined => {
    const agent = agents.get(record.agent);
    if (agent === undefined)
      replyError(res, 404, `agent "${record.agent}" is not registered with the studio`);
    return agent;
  };

  const decide = async (req: IncomingMessage, res: ServerResponse, id: string) => {
    const body = await readJson(req, res);
    if (body === undefined) return;
    const decisions = decisionsOf(body.value);
    if (typeof decisions === 'string') {
      replyError(res, 400, decisions);
      return;
    }
    const record = await findRun(id);
    if (record === undefined) {
      replyError(res, 404, 'run not found');
      return;
    }
    const agent = agentFor(res, record);
    if (agent === undefined) return;
    if (record.status !== 'paused') {
      replyError(res, 409, `the run is ${record.status}, not paused`);
      return;
    }
    const results = {
      ...(decisions.approvals !== undefined && {
        approvals: Object.fromEntries(
          Object.entries(decisions.approvals).map(([k, v]) => [
            k,
            { approved: v.approved, ...(v.reason !== undefined && { reason: v.reason }) },
          ]),
        ),
      }),
      ...(decisions.external !== undefined && { external: { ...decisions.external } }),
    };
    const runOwner = record.owner;
    startBackground(`decisions ${id}`, () =>
      agent.resume(id, results, { store, ...(runOwner !== undefined && { owner: runOwner }) }),
    );
    replyJson(res, 202, { runId: id });
  };

  const resume = async (res: ServerResponse, id: string) => {
    const record = await findRun(id);
    if (record === undefined) {
      replyError(res, 404, 'run not found');
      return;
    }
    const agent = agentFor(res, record);
    if (agent === undefined) return;
    if (!canResume(record, Date.now())) {
      replyError(
        res,
        409,
        `the run is ${record.status}${record.error === undefined ? '' : ` at ${record.error.stage}`}${record.lease !== undefined && record.status === 'running' ? ' and held by a live process' : ''}: it cannot be resumed`,
      );
      return;
    }
    const runOwner = record.owner;
    startBackground(`resume ${id}`, () =>
      agent.resumeRun(id, { store, ...(runOwner !== undefined && { owner: runOwner }) }),
    );
    replyJson(res, 202, { runId: id });
  };

  const replay = async (req: IncomingMessage, res: ServerResponse, id: string) => {
    const body = await readJson(req, res);
    if (body === undefined) return;
    const edits = replayOf(body.value);
    if (typeof edits === 'string') {
      replyError(res, 400, edits);
      return;
    }
    const model = edits.model === undefined ? undefined : models.get(edits.model);
    if (edits.model !== undefined && model === undefined) {
      replyError(res, 400, `model "${edits.model}" is not one of the studio's models`);
      return;
    }
    const record = await findRun(id);
    if (record === undefined) {
      replyError(res, 404, 'run not found');
      return;
    }
    const agent = agentFor(res, record);
    if (agent === undefined) return;
    const start = replayStart(record.messages, edits);
    if ('refused' in start) {
      replyError(res, 400, start.refused);
      return;
    }
    const runId = `replay-${randomUUID()}`;
    const runOwner = record.owner;
    const middleware = [
      ...(model === undefined ? [] : [modelOverride(model)]),
      ...(start.prompt === '' && start.parts.length === 0 ? [continueAfterResults()] : []),
    ];
    startBackground(`replay ${id}`, () =>
      agent.run(start.prompt, {
        history: start.history,
        ...(start.parts.length > 0 && { parts: start.parts }),
        runId,
        store,
        ...(runOwner !== undefined && { owner: runOwner }),
        ...(middleware.length > 0 && { middleware }),
      }),
    );
    replyJson(res, 202, { runId });
  };

  const playground = async (req: IncomingMessage, res: ServerResponse, name: string) => {
    const agent = agents.get(name);
    if (agent === undefined) {
      replyError(res, 404, `agent "${name}" is not registered`);
      return;
    }
    const body = await readJson(req, res);
    if (body === undefined) return;
    const value = body.value;
    if (!isRecord(value)) {
      replyError(res, 400, 'the body must be { messages, model?, settings? }');
      return;
    }
    const modelName = value.model;
    if (modelName !== undefined && typeof modelName !== 'string') {
      replyError(res, 400, 'model must be a name');
      return;
    }
    const model = modelName === undefined ? undefined : models.get(modelName);
    if (modelName !== undefined && model === undefined) {
      replyError(res, 400, `model "${modelName}" is not one of the studio's models`);
      return;
    }
    const settings = isRecord(value.settings) ? value.settings : {};
    const { temperature, maxTokens } = settings;
    if (temperature !== undefined && typeof temperature !== 'number') {
      replyError(res, 400, 'settings.temperature must be a number');
      return;
    }
    if (
      maxTokens !== undefined &&
      (typeof maxTokens !== 'number' || !Number.isSafeInteger(maxTokens))
    ) {
      replyError(res, 400, 'settings.maxTokens must be an integer');
      return;
    }
    const middleware = model === undefined ? [] : [modelOverride(model)];
    const chat: ChatAgent = {
      store,
      name: agent.name,
      runStream: (prompt, opts) =>
        agent.runStream(prompt, {
          ...opts,
          middleware: [...middleware, ...(opts?.middleware ?? [])],
        }),
      resumeStream: (history, results, opts) =>
        agent.resumeStream(history, results, {
          ...opts,
          middleware: [...middleware, ...(opts?.middleware ?? [])],
        }),
    };
    const request: NodeRequestLike = {
      body: value,
      [Symbol.asyncIterator]: () => (req as AsyncIterable<unknown>)[Symbol.asyncIterator](),
    };
    await pipeChat(chat, request, res, {
      store,
      ...(owner !== undefined && { owner }),
      run: {
        modelSettings: {
          ...(temperature !== undefined && { temperature }),
          ...(maxTokens !== undefined && { maxTokens }),
        },
      },
    });
  };

  const ingest = async (req: IncomingMessage, res: ServerResponse) => {
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    if (!type.startsWith('application/json')) {
      replyError(
        res,
        415,
        'the studio accepts OTLP/HTTP JSON only: set OTEL_EXPORTER_OTLP_PROTOCOL=http/json',
      );
      return;
    }
    const body = await readJson(req, res);
    if (body === undefined) return;
    const got = otlpSpans(body.value);
    if (got === undefined) {
      replyError(res, 400, 'the body is not an OTLP trace export');
      return;
    }
    spans.add(got);
    replyJson(res, 200, { partialSuccess: {} });
  };

  const streamRuns = (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => {
    const { filter, none } = rowFilter(query);
    const seen = new Map<string, number>();
    const poller = openPoller(
      req,
      res,
      pollMs,
      'runs',
      async () => {
        if (none) return [];
        const rows = await readRows(filter);
        const now = Date.now();
        const changed: RunSummary[] = [];
        for (const row of rows) {
          if (seen.get(row.id) === row.version) continue;
          seen.set(row.id, row.version);
          changed.push(summarizeRow(row, now));
        }
        return changed.length > 0 ? [changed] : [];
      },
      (error) => void report(error, 'runs stream'),
      () => pollers.delete(poller),
    );
    pollers.add(poller);
  };

  const streamRun = async (req: IncomingMessage, res: ServerResponse, id: string) => {
    const first = await findRun(id);
    if (first === undefined) {
      replyError(res, 404, 'run not found');
      return;
    }
    let version = -1;
    const poller = openPoller(
      req,
      res,
      pollMs,
      'run',
      async () => {
        const record = await findRun(id);
        if (record === undefined || record.version === version) return [];
        version = record.version;
        return [detailOf(record)];
      },
      (error) => void report(error, 'run stream'),
      () => pollers.delete(poller),
    );
    pollers.add(poller);
  };

  const info = (): StudioInfo => ({
    version: VERSION,
    agents: [...agents.values()].map(infoOf),
    models: [...models.keys()],
    ...(owner !== undefined && { owner }),
    features: { traces, evals: reports !== undefined, playground: agents.size > 0 },
  });

  const api = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<void> => {
    const method = req.method ?? 'GET';
    const parts = path
      .split('/')
      .slice(2)
      .map((p) => decodeURIComponent(p)); // after '/api'
    const [head, id, action] = parts;
    const get = method === 'GET' || method === 'HEAD';
    if (head === 'info' && parts.length === 1 && get) {
      replyJson(res, 200, info());
      return;
    }
    if (head === 'runs') {
      if (parts.length === 1 && get) {
        replyJson(res, 200, await runsPage(query));
        return;
      }
      if (parts.length === 2 && id === 'stream' && get) {
        streamRuns(req, res, query);
        return;
      }
      if (id !== undefined && id !== '' && parts.length === 2 && get) {
        const record = await findRun(id);
        if (record === undefined) replyError(res, 404, 'run not found');
        else replyJson(res, 200, detailOf(record));
        return;
      }
      if (id !== undefined && id !== '' && parts.length === 3) {
        if (action === 'stream' && get) return streamRun(req, res, id);
        if (method === 'POST' && action === 'decisions') return decide(req, res, id);
        if (method === 'POST' && action === 'resume') return resume(res, id);
        if (method === 'POST' && action === 'replay') return replay(req, res, id);
      }
    }
    if (head === 'playground' && parts.length === 2 && id !== undefined && method === 'POST')
      return playground(req, res, id);
    if (head === 'evals' && get) {
      if (reports === undefined) {
        replyError(res, 404, 'the studio has no reports folder');
        return;
      }
      if (parts.length === 1) {
        replyJson(res, 200, await listReports(reports));
        return;
      }
      if (parts.length === 2 && id === 'compare') {
        const result = await compareFiles(
          reports,
          query.get('base') ?? '',
          query.get('candidate') ?? '',
        );
        if ('missing' in result) replyError(res, 404, `the ${result.missing} report was not found`);
        else replyJson(res, 200, result.comparison);
        return;
      }
      if (parts.length === 2 && id !== undefined) {
        const found = await loadReport(reports, id);
        if (found === undefined) replyError(res, 404, 'report not found');
        else replyJson(res, 200, found);
        return;
      }
    }
    replyError(res, 404, 'no such API route');
  };

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    next?: () => void,
  ): Promise<void> => {
    const method = req.method ?? 'GET';
    let url: URL;
    try {
      const raw = (req as { originalUrl?: unknown }).originalUrl;
      url = new URL(typeof raw === 'string' ? raw : (req.url ?? '/'), 'http://localhost');
    } catch {
      replyError(res, 400, 'bad request URL');
      return;
    }
    const path = url.pathname;
    const refused = hostRefusal(req, allowedHosts);
    if (refused !== undefined) {
      replyError(res, 403, refused);
      return;
    }
    const isApi = path === '/api' || path.startsWith('/api/');
    const isOtlp = path === '/v1' || path.startsWith('/v1/');
    try {
      if (isApi || isOtlp) {
        if (closed) {
          replyError(res, 503, 'the studio is closed');
          return;
        }
        const sse = method === 'GET' && /^\/api\/runs\/(?:[^/]+\/)?stream$/.test(path);
        const given =
          bearer(req) ?? (sse ? (url.searchParams.get('token') ?? undefined) : undefined);
        if (given === undefined || !tokenMatches(given, token)) {
          replyError(res, 401, 'a valid studio token is required', {
            'www-authenticate': 'Bearer',
          });
          return;
        }
        if (isOtlp) {
          if (path === '/v1/traces' && method === 'POST' && traces) {
            await ingest(req, res);
            return;
          }
          replyError(res, 404, 'no such route');
          return;
        }
        await api(req, res, path, url.searchParams);
        return;
      }
      if (method !== 'GET' && method !== 'HEAD') {
        if (next !== undefined) {
          next();
          return;
        }
        replyError(res, 405, 'method not allowed', { allow: 'GET, HEAD' });
        return;
      }
      await serveStatic(appDir, path, res, method === 'HEAD');
    } catch (error) {
      const ref = report(error, `${method} ${path}`);
      if (res.headersSent) {
        if (!res.writableEnded) res.end();
        return;
      }
      replyError(res, 500, `internal error (ref ${ref})`);
    }
  };

  return {
    token,
    handle,
    close: async () => {
      closed = true;
      for (const poller of [...pollers]) poller.stop();
      while (background.size > 0) await Promise.all([...background]);
    },
  };
}
