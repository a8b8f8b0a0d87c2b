import type { ResumeOptions, StreamOptions } from '../core/agent/config';
import type { RunStore } from '../core/durable/port';
import type { DeferredResults } from '../core/engine/deferred-types';
import { isRecord } from '../core/kit/guards';
import type { Message } from '../core/contract/message';
import type { ModelSettings } from '../core/contract/request';
import type { UIMessageChunk } from './chunk-types';
import type { ChatTurn } from './from-ui-messages';
import { fromUIMessages, settledCalls } from './from-ui-messages';
import type { UIResponseOptions } from './sse';
import { createUIMessageStreamResponse } from './sse';
import type { UIEventSource } from './stream-options';
import type { StoredDecisions } from './stored-resume';
import { checkStoredResume } from './stored-resume';
import { chunkStream } from './to-ui-stream';
import { UIMessageError } from './ui-message-error';
import type { AsyncIterableStream } from './iterable-stream';

/**
 * What the chat helpers need of an agent: an `Agent` (its `runStream` and `resumeStream`, its
 * run store, if any, and the `name` its stored runs carry).
 */
export interface ChatAgent<Deps = unknown, Output = unknown> {
  readonly store: RunStore | undefined;
  /** The agent's name: a stored run of another agent is not resumed through this route. */
  readonly name?: string;
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
  /**
   * Who the request speaks for (a tenant or user key, from your authentication — never from the
   * request body). With a run store, a new run is stored with this owner and a paused run resumes
   * only if it was stored with it; another owner's run is refused exactly as an unknown id.
   * Without a store there is nothing to own and it is not used.
   */
  owner?: string;
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

/** A chat request read and checked: what to start or resume, and through which store. */
interface ChatPlan {
  turn: ChatTurn;
  store: RunStore | undefined;
  /** The stored run to resume, and the decisions for it. */
  stored?: StoredDecisions;
}

/**
 * Reads a chat request. With a run store, decisions are honoured only against a stored run: a
 * paused message without a `runId` is refused (the client's copy of the calls is never trusted
 * to run a tool).
 */
function planChat<Deps, Output>(
  agent: ChatAgent<Deps, Output>,
  body: unknown,
  options: ChatOptions<Deps, Output>,
): ChatPlan {
  const messages = messagesOf(body);
  const turn = fromUIMessages(messages);
  const store = options.store ?? agent.store;
  if (turn.resume === undefined || store === undefined) return { turn, store };
  const messagePath = `messages[${(messages as unknown[]).length - 1}]`;
  const runIdPath = `${messagePath}.metadata.runId`;
  const { runId, results } = turn.resume;
  if (runId === undefined)
    throw new UIMessageError(
      runIdPath,
      "this chat keeps its runs in a run store: decisions resume only a stored run, by the runId in the paused message's metadata",
    );
  const callIds = [...Object.keys(results.approvals), ...Object.keys(results.external)];
  return { turn, store, stored: { runId, runIdPath, messagePath, callIds } };
}

/** The chunk stream of a planned chat request. */
function planStream<Deps, Output>(
  agent: ChatAgent<Deps, Output>,
  plan: ChatPlan,
  options: ChatOptions<Deps, Output>,
): AsyncIterableStream<UIMessageChunk> {
  const { turn, store } = plan;
  const base = { deps: options.deps, signal: options.signal, ...(options.run ?? {}) };
  const scoped: { store?: RunStore; owner?: string } = {};
  if (options.store !== undefined) scoped.store = options.store;
  if (store !== undefined && options.owner !== undefined) scoped.owner = options.owner;
  if (turn.resume === undefined) {
    const runOptions = { ...base, history: turn.history, parts: turn.parts, ...scoped };
    const run = agent.runStream(turn.prompt, runOptions as StreamOptions<Deps>);
    return chunkStream(run, options, undefined);
  }
  const { results, messageId } = turn.resume;
  const resumeOptions = { ...base, ...scoped } as ResumeOptions<Deps>;
  const target = plan.stored === undefined ? turn.history : plan.stored.runId;
  const run = agent.resumeStream(target, results, resumeOptions);
  return chunkStream(run, { ...options, messageId }, settledCalls(results));
}

/**
 * The UI message stream answering a chat request body (`{ messages }` from `useChat`): a user
 * message as the last message starts a run on the rebuilt history; a paused assistant message
 * carrying the client's decisions (tool parts in `approval-responded`) and external results
 * resumes the paused run and streams the continuation into the same assistant message (its id is
 * reused). With a run store (the agent's or `options.store`) the decisions resume only the stored
 * run named by the `runId` in the message's metadata, as `options.owner` — a paused message
 * without one is refused, and a run this route cannot see ends the stream with the resume's
 * refusal before anything runs; without a store the run resumes from the rebuilt history (the
 * client is trusted). Throws `UIMessageError` for a malformed request.
 */
export function chatStream<Deps, Output>(
  agent: ChatAgent<Deps, Output>,
  body: unknown,
  options: ChatOptions<Deps, Output> = {},
): AsyncIterableStream<UIMessageChunk> {
  return planStream(agent, planChat(agent, body, options), options);
}

/**
 * {@link chatStream}, after checking a stored run to resume: one the route cannot see (unknown,
 * another owner's or agent's) is refused with a 404 `UIMessageError`, one no longer paused with a
 * 409. Internal: the routes answer with it.
 */
export async function admitChat<Deps, Output>(
  agent: ChatAgent<Deps, Output>,
  body: unknown,
  options: ChatOptions<Deps, Output>,
): Promise<AsyncIterableStream<UIMessageChunk>> {
  const plan = planChat(agent, body, options);
  if (plan.stored !== undefined && plan.store !== undefined)
    await checkStoredResume(plan.store, plan.stored, { agent: agent.name, owner: options.owner });
  return planStream(agent, plan, options);
}

/** A JSON answer for a refused chat request: `{ error, path }`. Internal. */
export function badRequestBody(error: UIMessageError): string {
  return JSON.stringify({ error: error.message, path: error.path });
}

/**
 * A chat route in one line for fetch-style servers (Next.js, Hono, Bun, Deno):
 * `return chatResponse(agent, await request.json(), { owner })`. Streams {@link chatStream} as
 * the UI message stream; a malformed request gets HTTP 400 with `{ error, path }`, decisions for a
 * stored run the route cannot see HTTP 404 (409 when it no longer waits), and nothing runs.
 */
export async function chatResponse<Deps, Output>(
  agent: ChatAgent<Deps, Output>,
  body: unknown,
  options: ChatOptions<Deps, Output> = {},
): Promise<Response> {
  let stream: ReadableStream<UIMessageChunk>;
  try {
    stream = await admitChat(agent, body, options);
  } catch (error) {
    if (!UIMessageError.is(error)) throw error;
    return new Response(badRequestBody(error), {
      status: error.status,
      headers: { 'content-type': 'application/json' },
    });
  }
  return createUIMessageStreamResponse(stream, options);
}
