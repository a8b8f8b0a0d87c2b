import { ModelRetry, isCancellation, throwIfCancelled } from '../core/index';
import type { Delta, Middleware, ModelRequest, ModelResponse } from '../core/index';
import {
  loadResponse,
  storeResponse,
  type CassetteCall,
  type CassetteFile,
  type CassetteModelCall,
  type CassetteToolCall,
} from './cassette';
import { insideCassette, isInsideCassette } from './cassette-context';
import { requestFingerprint, requestSummary } from './cassette-fingerprint';
import { EvalError } from './eval-error';
import { toJsonValue } from './evidence';
import { scrubSecrets } from '../core/kit/scrub-secrets';

const RECORD_AGAIN = "record again with --record / mode 'record'";

/** One case run's cassette: the middleware to run the task's agents with, and what it saw. */
export interface CassetteSession {
  readonly mode: 'record' | 'replay';
  /** Records or replays every model call and tool execution it wraps. */
  readonly middleware: Middleware;
  /** Record mode: the calls recorded so far, in order. */
  readonly calls: readonly CassetteCall[];
  /**
   * Replay mode: the first cassette error raised (missing or mismatched call), kept even when
   * the run swallowed it, so the case fails with it.
   */
  readonly failure: EvalError | undefined;
}

/**
 * A session that calls the model and the tools and records each call (model calls with their
 * request fingerprint and, when streamed, their fragments; tool executions with their result or
 * error). Calls made inside a recorded call (a sub-agent inside a tool) are not recorded.
 */
export function recordingSession(): CassetteSession {
  const calls: CassetteCall[] = [];
  const middleware: Middleware = {
    name: 'evalCassette(record)',
    async generate(call, next) {
      if (isInsideCassette()) return next(call.request);
      const request = call.request;
      const fingerprint = requestFingerprint(request);
      const response = await insideCassette(() => next(request));
      calls.push(modelRecord(fingerprint, request, response, undefined));
      return response;
    },
    async stream(call, next) {
      if (isInsideCassette()) return next(call.request, call.onDelta);
      const request = call.request;
      const fingerprint = requestFingerprint(request);
      const deltas: Delta[] = [];
      const response = await insideCassette(() =>
        next(request, async (delta) => {
          deltas.push(JSON.parse(JSON.stringify(delta)) as Delta);
          await call.onDelta(delta);
        }),
      );
      calls.push(modelRecord(fingerprint, request, response, deltas));
      return response;
    },
    async tool(call, next) {
      if (isInsideCassette()) return next(call.args);
      const base = { type: 'tool' as const, tool: call.tool, callId: call.callId };
      try {
        const result = await insideCassette(() => next(call.args));
        calls.push({ ...base, args: toJsonValue(call.args), result });
        return result;
      } catch (error) {
        if (!isCancellation(error)) {
          calls.push({ ...base, args: toJsonValue(call.args), error: storedError(error) });
        }
        throw error;
      }
    },
  };
  return { mode: 'record', middleware, calls, failure: undefined };
}

function modelRecord(
  fingerprint: string,
  request: ModelRequest,
  response: ModelResponse,
  deltas: readonly Delta[] | undefined,
): CassetteModelCall {
  const record: CassetteModelCall = {
    type: 'model',
    fingerprint,
    request: requestSummary(request),
    response: storeResponse(response),
  };
  return deltas === undefined ? record : { ...record, deltas };
}

/** A tool's error as the cassette keeps it, its text scrubbed of anything shaped like a secret. */
function storedError(error: unknown): { name: string; message: string } {
  if (ModelRetry.is(error)) return { name: 'ModelRetry', message: scrubSecrets(error.reason, []) };
  if (error instanceof Error) return { name: error.name, message: scrubSecrets(error.message, []) };
  return { name: 'Error', message: scrubSecrets(String(error), []) };
}

/** Where a replayed cassette came from, for its errors. */
export interface ReplayOptions {
  readonly caseName: string;
  readonly file: string;
  /** `strict`: each model request must match its recorded fingerprint; `order`: position only. */
  readonly match: 'strict' | 'order';
}

/**
 * A session that answers from `cassette` without calling the model or the tools: model calls in
 * recorded order (their fragments replayed to a streamed call), tool executions by tool name and
 * call id (a recorded error is thrown again: a `ModelRetry` as one). A call the cassette lacks
 * fails with `EvalError('cassette-missing')`, a changed request (strict) with
 * `EvalError('cassette-mismatch')`.
 */
export function replayingSession(cassette: CassetteFile, options: ReplayOptions): CassetteSession {
  const models = cassette.calls.filter((c): c is CassetteModelCall => c.type === 'model');
  const tools = cassette.calls.filter((c): c is CassetteToolCall => c.type === 'tool');
  const used = new Set<CassetteToolCall>();
  let position = 0;
  const session: { failure: EvalError | undefined } = { failure: undefined };
  const fail = (error: EvalError): EvalError => {
    session.failure ??= error;
    return error;
  };
  const where = `case "${options.caseName}" (cassette ${options.file})`;

  const nextModel = (request: ModelRequest): CassetteModelCall => {
    const index = position;
    const recorded = models[index];
    if (recorded === undefined) {
      throw fail(
        new EvalError(
          'cassette-missing',
          `${where}: model call ${index + 1} was not recorded (the cassette holds ${models.length}); ${RECORD_AGAIN}`,
          { caseName: options.caseName, file: options.file },
        ),
      );
    }
    if (options.match === 'strict' && recorded.fingerprint !== requestFingerprint(request)) {
      throw fail(
        new EvalError(
          'cassette-mismatch',
          `${where}: model call ${index + 1} sends a request other than the recorded one (instructions, tools, input or settings changed; recorded last message: "${recorded.request.last}"); ${RECORD_AGAIN}, or use match 'order'`,
          { caseName: options.caseName, file: options.file },
        ),
      );
    }
    position += 1;
    return recorded;
  };

  const middleware: Middleware = {
    name: 'evalCassette(replay)',
    generate(call) {
      throwIfCancelled(call.options?.signal);
      return Promise.resolve(loadResponse(nextModel(call.request).response));
    },
    async stream(call) {
      throwIfCancelled(call.options?.signal);
      const recorded = nextModel(call.request);
      const response = loadResponse(recorded.response);
      for (const delta of recorded.deltas ?? []) {
        await call.onDelta(JSON.parse(JSON.stringify(delta)) as Delta);
      }
      return response;
    },
    tool(call) {
      const recorded = tools.find(
        (t) => !used.has(t) && t.tool === call.tool && t.callId === call.callId,
      );
      if (recorded === undefined) {
        return Promise.reject(
          fail(
            new EvalError(
              'cassette-missing',
              `${where}: tool call "${call.tool}" (id ${call.callId}) was not recorded; ${RECORD_AGAIN}`,
              { caseName: options.caseName, file: options.file },
            ),
          ),
        );
      }
      used.add(recorded);
      if (recorded.error !== undefined) return Promise.reject(replayedError(recorded.error));
      return Promise.resolve(recorded.result ?? '');
    },
  };
  return {
    mode: 'replay',
    middleware,
    calls: cassette.calls,
    get failure() {
      return session.failure;
    },
  };
}

function replayedError(error: { name: string; message: string }): Error {
  if (error.name === 'ModelRetry') return new ModelRetry(error.message);
  const replayed = new Error(error.message);
  replayed.name = error.name;
  return replayed;
}
