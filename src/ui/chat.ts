import type { ResumeOptions, StreamOptions } from '../agent-config';
import type { RunStore } from '../durable/port';
import type { DeferredResults } from '../engine/deferred-types';
import { isRecord } from '../model/guards';
import type { Message } from '../model/message';
import type { ModelSettings } from '../model/request';
import type { UIMessageChunk } from './chunk-types';
import { fromUIMessages, settledCalls } from './from-ui-messages';
import type { UIResponseOptions } from './sse';
import { createUIMessageStreamResponse } from './sse';
import type { UIEventSource } from './stream-options';
import { chunkStream } from './to-ui-stream';
import { UIMessageError } from './ui-message-error';
import type { AsyncIterableStream } from './iterable-stream';

/**
 * What the chat helpers need of an agent: an `Agent` (its `runStream` and `resumeStream`, and its
 * run store, if any).
 */
export interface ChatAgent<Deps = unknown, Output = unknown> {
  readonly store: RunStore | undefined;
  runStream(prompt: string, options?: StreamOptions<Deps>): UIEventSource<Output>;
  resumeStream(
    history: readonly Message[] | string,
    results: DeferredResults,
    options?: ResumeOptions<Deps>,
  ): UIEventSource<Output>;
}

/** Options of the chat helpers: the stream's and response's, plus the run's. */
export interface ChatOptions<Deps = unknown, Output = unknown> extends UIResponseOptions<Output> {
  /** The run's dependencies (`ctx.deps`). */
  deps?: Deps;
  /** Cancels the run (the Node helper also cancels it when the client goes away). */
  signal?: AbortSignal;
  /** The run store, instead of the agent's: a paused run resumes by the `runId` in its metadata. */
  store?: RunStore;
  /** More run options: model settings, deadlines. */
  run?: { modelSettings?: ModelSettings; timeout?: number; turnTimeout?: number };
}

/** The `messages` of a chat request body (`{ messages }`, as `useChat` sends), or the array itself. */
function messagesOf(body: unknown): unknown {
  if (Array.isArray(body)) return body;
  if (!isRecord(body)) throw new UIMessageError('body', 'expected a JSON object with `messages`');
  if (!('messages' in body)) throw new UIMessageError('body', 'the request has no `messages`');
  return body.messages;
}

/**
 * The UI message stream answering a chat request body (`{ messages }` from `useChat`): a user
 * message as the last message starts a run on the rebuilt history; a paused assistant message
 * carrying the client's approval decisions (tool parts in `approval-responded`) and external
 * results resumes the paused run — through the run store by the `runId` in its metadata when the
 * agent (or `options.store`) has one, else from the rebuilt history — and streams the
 * continuation into the same assistant message (its id is reused). Throws `UIMessageError` for
 * a malformed request.
 */
export function chatStream<Deps, Output>(
  agent: ChatAgent<Deps, Output>,
  body: unknown,
  options: ChatOptions<Deps, Output> = {},
): AsyncIterableStream<UIMessageChunk> {
  const turn = fromUIMessages(messagesOf(body));
  const base = { deps: options.deps, signal: options.signal, ...(options.run ?? {}) };
  const store = options.store ?? agent.store;
  if (turn.resume === undefined) {
    const runOptions = { ...base, history: turn.history, parts: turn.parts };
    if (options.store !== undefined) Object.assign(runOptions, { store: options.store });
    const run = agent.runStream(turn.prompt, runOptions as StreamOptions<Deps>);
    return chunkStream(run, options, undefined);
  }
  const { results, runId, messageId } = turn.resume;
  const resumeOptions = { ...base } as ResumeOptions<Deps>;
  if (options.store !== undefined) Object.assign(resumeOptions, { store: options.store });
  const target = store !== undefined && runId !== undefined ? runId : turn.history;
  const run = agent.resumeStream(target, results, resumeOptions);
  return chunkStream(run, { ...options, messageId }, settledCalls(results));
}

/** A JSON 400 answer for a malformed chat request. Internal. */
export function badRequestBody(error: UIMessageError): string {
  return JSON.stringify({ error: error.message, path: error.path });
}

/**
 * A chat route in one line for fetch-style servers (Next.js, Hono, Bun, Deno):
 * `return chatResponse(agent, await request.json())`. Streams {@link chatStream} as the UI message
 * stream; a malformed request gets HTTP 400 with `{ error, path }`.
 */
export function chatResponse<Deps, Output>(
  agent: ChatAgent<Deps, Output>,
  body: unknown,
  options: ChatOptions<Deps, Output> = {},
): Response {
  let stream: ReadableStream<UIMessageChunk>;
  try {
    stream = chatStream(agent, body, options);
  } catch (error) {
    if (!UIMessageError.is(error)) throw error;
    return new Response(badRequestBody(error), {
      status: 400,
      headers: { 'content-type': 'application/json' },
    });
  }
  return createUIMessageStreamResponse(stream, options);
}
