import { ConfigError } from '../core/kit/config-error';
import { isRecord } from '../core/kit/guards';
import type { Message } from '../core/contract/message';
import type { ModelRequest } from '../core/contract/request';
import type { ModelResponse } from '../core/contract/response';
import type { Middleware, ModelCall, ToolInvocation } from '../core/engine/middleware';
import { scrubSecrets } from '../core/kit/scrub-secrets';

/**
 * Where `logRequests` writes: one object per entry. `console`, a pino logger and a Nest `Logger`
 * fit as they are (`info` is used when present, else `log` — Nest's `Logger.log`).
 */
export interface RequestLogger {
  /** Writes a successful call's entry (pino, console). */
  info?(entry: object): unknown;
  /** Writes a successful call's entry when there is no `info` (Nest's `Logger`). */
  log?(entry: object): unknown;
  /** Writes a failed call's entry. */
  error(entry: object): unknown;
}

/** What `logRequests` adds beyond the summary (`level: 'full'` adds all of them). */
export type LogDetail = 'messages' | 'response' | 'toolArgs' | 'toolResults' | 'settings';

const DETAILS: readonly LogDetail[] = [
  'messages',
  'response',
  'toolArgs',
  'toolResults',
  'settings',
];

/** Options of {@link logRequests}. */
export interface LogRequestsOptions {
  /** Where entries go; default `console`. */
  logger?: RequestLogger;
  /**
   * `summary` (default): who, what, how long, usage, finish reason, errors — no conversation
   * text. `full`: also the messages, the response text, tool arguments and results, the settings.
   */
  level?: 'summary' | 'full';
  /** Details to add to the summary (instead of all of `full`). */
  include?: readonly LogDetail[];
  /**
   * Applied to every text an entry carries (messages, response, tool arguments and results,
   * error messages), after the built-in secret scrubbing — e.g. PII masking.
   */
  redact?: (text: string) => string;
  /** Literal secrets (API keys…) removed from every text, in every encoded form. */
  secrets?: readonly string[];
  /** The clock for durations, in ms; default `performance.now`. */
  now?: () => number;
}

/**
 * Middleware logging each model call and each tool execution as one structured entry. A model
 * call's entry (`event: 'golem.model_call'`): `model`, the call's scope (`agent`, `owner`,
 * `runId`, `conversationId`, `turn`, `attempt`), `messages` (count), `tools` (names offered),
 * `durationMs`, `usage`, `finishReason`, `toolCalls` (names requested); a failure
 * (`golem.model_call_failed`, through `logger.error`) carries `error: { name, message }` instead
 * and is rethrown unchanged. A tool's entry (`golem.tool_call` / `golem.tool_call_failed`): `tool`,
 * `callId`, the run's scope, `durationMs`, `resultChars`. `level: 'full'` (or `include`) adds the
 * conversation text, passed through `redact`.
 *
 * Never logs a secret: every text (error messages included) is scrubbed of API-key shapes,
 * `Bearer` credentials, `authorization`/`x-api-key` values and the `secrets` given; request
 * headers are never logged. Streamed calls are logged once, when they end. Place it first in the
 * list to time the whole chain (retries of the engine are separate calls, `attempt` tells them
 * apart); place it last to log what the provider actually received (after `redactPii`).
 *
 * ```ts
 * new Agent({ model, middleware: [logRequests({ logger: pino(), level: 'summary' })] });
 * ```
 */
export function logRequests(options: LogRequestsOptions = {}): Middleware {
  const checked = checkOptions(options);
  const logger = checked.logger ?? console;
  const info = (entry: object): void => {
    if (typeof logger.info === 'function') logger.info(entry);
    else logger.log?.(entry);
  };
  const details = new Set<LogDetail>(
    checked.level === 'full' ? DETAILS : [...(checked.include ?? [])],
  );
  const secrets = [...(checked.secrets ?? [])];
  const user = checked.redact;
  const clean = (text: string): string => {
    const scrubbed = scrubSecrets(text, secrets);
    return user === undefined ? scrubbed : scrubSecrets(user(scrubbed), secrets);
  };
  const now = checked.now ?? (() => performance.now());
  return {
    name: 'logRequests',
    async generate(call, next) {
      const started = now();
      const base = modelEntry(call, details, clean);
      let response: ModelResponse;
      try {
        response = await next(call.request);
      } catch (error) {
        logger.error({
          event: 'golem.model_call_failed',
          ...base,
          durationMs: now() - started,
          error: errorOf(error, clean),
        });
        throw error;
      }
      info({
        event: 'golem.model_call',
        ...base,
        durationMs: now() - started,
        usage: { ...response.usage },
        ...(response.finishReason !== undefined && { finishReason: response.finishReason }),
        ...(response.modelName !== undefined && { modelName: response.modelName }),
        toolCalls: (response.message.toolCalls ?? []).map((c) => c.name),
        ...(details.has('response') && { response: messageOf(response.message, clean) }),
      });
      return response;
    },
    async tool(call, next) {
      const started = now();
      const base = toolEntry(call, details, clean);
      let result: string;
      try {
        result = await next(call.args);
      } catch (error) {
        logger.error({
          event: 'golem.tool_call_failed',
          ...base,
          durationMs: now() - started,
          error: errorOf(error, clean),
        });
        throw error;
      }
      info({
        event: 'golem.tool_call',
        ...base,
        durationMs: now() - started,
        resultChars: result.length,
        ...(details.has('toolResults') && { result: clean(result) }),
      });
      return result;
    },
  };
}

function checkOptions(options: unknown): LogRequestsOptions {
  const fail = (option: string, message: string): ConfigError =>
    new ConfigError(`logRequests: ${option} ${message}`, { component: 'middleware', option });
  if (!isRecord(options)) throw fail('options', 'must be an object');
  const { logger, level, include, redact, secrets, now } = options;
  if (
    logger !== undefined &&
    !(
      isRecord(logger) &&
      typeof logger.error === 'function' &&
      (typeof logger.info === 'function' || typeof logger.log === 'function')
    )
  )
    throw fail('logger', 'must have error(entry) and info(entry) or log(entry)');
  if (level !== undefined && level !== 'summary' && level !== 'full')
    throw fail('level', "must be 'summary' or 'full'");
  if (
    include !== undefined &&
    !(Array.isArray(include) && include.every((d) => (DETAILS as readonly unknown[]).includes(d)))
  )
    throw fail('include', `must list some of ${DETAILS.join(', ')}`);
  if (redact !== undefined && typeof redact !== 'function')
    throw fail('redact', 'must be a function (text) => text');
  if (
    secrets !== undefined &&
    !(Array.isArray(secrets) && secrets.every((s) => typeof s === 'string'))
  )
    throw fail('secrets', 'must be an array of strings');
  if (now !== undefined && typeof now !== 'function')
    throw fail('now', 'must be a function returning milliseconds');
  return options;
}

function scopeOf(scope: Partial<ToolInvocation['scope']> | undefined): Record<string, unknown> {
  if (scope === undefined) return {};
  const out: Record<string, unknown> = {};
  for (const key of ['agent', 'owner', 'runId', 'conversationId'] as const)
    if (scope[key] !== undefined) out[key] = scope[key];
  return out;
}

function modelEntry(
  call: ModelCall,
  details: ReadonlySet<LogDetail>,
  clean: (text: string) => string,
): Record<string, unknown> {
  const { request } = call;
  const scope = call.options?.scope;
  return {
    model: call.model,
    ...scopeOf(scope),
    ...(scope !== undefined && { turn: scope.turn, attempt: scope.attempt }),
    messages: request.messages.length,
    tools: request.tools.map((t) => t.name),
    ...(details.has('settings') &&
      request.settings !== undefined && {
        settings: clean(jsonText(request.settings)),
      }),
    ...(details.has('messages') && { request: messagesOf(request, clean) }),
  };
}

function toolEntry(
  call: ToolInvocation,
  details: ReadonlySet<LogDetail>,
  clean: (text: string) => string,
): Record<string, unknown> {
  return {
    tool: call.tool,
    callId: call.callId,
    ...scopeOf(call.scope),
    ...(details.has('toolArgs') && { args: clean(jsonText(call.args)) }),
  };
}

function messagesOf(request: ModelRequest, clean: (text: string) => string): object[] {
  return request.messages.map((m) => messageOf(m, clean));
}

/** A message as logged: role, text, tool calls (arguments redacted), part kinds. */
function messageOf(message: Message, clean: (text: string) => string): object {
  return {
    role: message.role,
    ...(message.content !== undefined && { content: clean(message.content) }),
    ...(message.parts !== undefined && { parts: message.parts.map((p) => p.kind) }),
    ...(message.toolCalls !== undefined && {
      toolCalls: message.toolCalls.map((c) => ({ id: c.id, name: c.name, args: clean(c.args) })),
    }),
    ...(message.toolCallId !== undefined && { toolCallId: message.toolCallId }),
  };
}

function jsonText(value: unknown): string {
  try {
    // JSON.stringify gives undefined for these.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol')
      return String(value);
    return JSON.stringify(value);
  } catch {
    return '(unserialisable arguments)';
  }
}

/** An error as logged: its class and its message, both scrubbed. Never its cause or stack. */
function errorOf(
  error: unknown,
  clean: (text: string) => string,
): { name: string; message: string } {
  let name = 'Error';
  let message: string;
  try {
    if (error instanceof Error) {
      name = error.name;
      message = error.message;
    } else message = String(error);
  } catch {
    message = '(unprintable error)';
  }
  return { name: clean(name), message: clean(message) };
}
