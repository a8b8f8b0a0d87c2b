import { randomUUID } from 'node:crypto';
import { ConfigError, throwIfCancelled, type Agent, type Tool } from '../../core/index';
import { A2AProtocolError } from '../a2a-error';
import { parsePart, parseSendMessageResult, parseTask } from '../wire-check';
import {
  A2A_METHODS,
  type Message,
  type Part,
  type SendMessageResult,
  type StreamResponse,
  type Task,
} from '../wire-types';
import { type AgentCard } from '../card-types';
import type { A2AConnection, A2AInput } from './connection-types';
import { readEventStream } from './event-stream';
import { malformed, wireFailure } from './failures';
import { endsStream, taskIdOf } from './final-state';
import {
  A2A_COMPONENT,
  type A2AAgentOptions,
  type A2AAnswer,
  type A2ACallOptions,
  type A2ASendOptions,
  type A2AToolOptions,
  type ResolvedOptions,
} from './options';
import type { RpcChannel } from './rpc';
import { bridgeAgent } from './tool-bridge';
import { answerTask } from './answer';
import type { PendingA2ATask } from './pending-task';
import { remoteAgent } from './remote-agent';

/** How long the `CancelTask` sent after an abort may take before it is given up. */
const CANCEL_TIMEOUT_MS = 10_000;

/** The {@link A2AConnection} over one JSON-RPC channel. Internal: made by `connectA2A`. */
export class Connection implements A2AConnection {
  constructor(
    readonly card: AgentCard,
    readonly endpoint: string,
    private readonly channel: RpcChannel,
    private readonly options: ResolvedOptions,
  ) {}

  async send(input: A2AInput, options: A2ASendOptions = {}): Promise<SendMessageResult> {
    const method = A2A_METHODS.send;
    const message = userMessage(method, input, options);
    let result: unknown;
    try {
      result = await this.channel.call(method, { message }, options.signal);
    } catch (error) {
      if (options.signal?.aborted === true && options.taskId !== undefined) {
        await this.cancelQuietly(options.taskId);
      }
      throw error;
    }
    try {
      return parseSendMessageResult(result);
    } catch (error) {
      throw malformed(method, error, this.options.secrets);
    }
  }

  async *stream(input: A2AInput, options: A2ASendOptions = {}): AsyncGenerator<StreamResponse> {
    const method = A2A_METHODS.stream;
    const { signal } = options;
    const message = userMessage(method, input, options);
    throwIfCancelled(signal);
    let taskId = options.taskId;
    // The request runs on its own signal: a caller aborting before the task's id arrived keeps it
    // open until the first event names the task (at most CANCEL_TIMEOUT_MS), so it can be canceled.
    const request = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      if (taskId !== undefined) request.abort(signal?.reason);
      else {
        timer = setTimeout(() => {
          request.abort(signal?.reason);
        }, CANCEL_TIMEOUT_MS);
        timer.unref();
      }
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const opened = await this.channel.open(
        method,
        { message },
        'text/event-stream',
        request.signal,
      );
      const events = readEventStream(opened, {
        channel: this.channel,
        method,
        maxEventBytes: this.options.maxResponseBytes,
        secrets: this.options.secrets,
        signal: request.signal,
      });
      for await (const update of events) {
        taskId = taskIdOf(update) ?? taskId;
        throwIfCancelled(signal);
        yield update;
        throwIfCancelled(signal);
        if (endsStream(update)) return;
      }
    } catch (error) {
      if (signal?.aborted === true) {
        if (taskId !== undefined) await this.cancelQuietly(taskId);
        throwIfCancelled(signal);
      }
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (timer !== undefined) clearTimeout(timer);
      request.abort();
    }
    throw wireFailure(method, 'the event stream ended before the task reached a final state', []);
  }

  async getTask(id: string, options: A2ACallOptions = {}): Promise<Task> {
    return this.taskCall(A2A_METHODS.getTask, id, options);
  }

  async cancelTask(id: string, options: A2ACallOptions = {}): Promise<Task> {
    return this.taskCall(A2A_METHODS.cancelTask, id, options);
  }

  asTool(options?: A2AToolOptions): Tool {
    return bridgeAgent(this, options);
  }

  answer(
    call: { readonly reason: string } | PendingA2ATask,
    reply: A2AInput,
    options?: A2ACallOptions,
  ): Promise<A2AAnswer> {
    return answerTask(this, call, reply, options);
  }

  asAgent(options?: A2AAgentOptions): Agent {
    return remoteAgent(this, options);
  }

  close(): void {
    this.channel.close();
  }

  private async taskCall(
    method: typeof A2A_METHODS.getTask | typeof A2A_METHODS.cancelTask,
    id: string,
    options: A2ACallOptions,
  ): Promise<Task> {
    if (typeof id !== 'string' || id === '') {
      throw new ConfigError(`A2A ${method}: the task id must be a non-empty string`, {
        component: A2A_COMPONENT,
        option: 'id',
      });
    }
    const result = await this.channel.call(method, { id }, options.signal);
    try {
      return parseTask(result);
    } catch (error) {
      throw malformed(method, error, this.options.secrets);
    }
  }

  /** Best-effort `CancelTask` after an abort: its failure is not the caller's error. */
  private async cancelQuietly(taskId: string): Promise<void> {
    await this.cancelTask(taskId, { signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) }).catch(
      () => undefined,
    );
  }
}

/** The user message for `input`: a text part, or the parts given (checked). */
function userMessage(method: string, input: A2AInput, options: A2ASendOptions): Message {
  let parts: Part[];
  if (typeof input === 'string') parts = [{ text: input }];
  else if (Array.isArray(input) && input.length > 0) {
    parts = (input as readonly unknown[]).map((part, i) => {
      try {
        return parsePart(part, `parts[${i}]`);
      } catch (error) {
        if (!(error instanceof A2AProtocolError)) throw error;
        throw new ConfigError(`A2A ${method}: ${error.message.replace(/^A2A: /, '')}`, {
          component: A2A_COMPONENT,
          option: 'input',
        });
      }
    });
  } else {
    throw new ConfigError(
      `A2A ${method}: the input must be a text or a non-empty array of parts ({ text }, { data }, { url } or { raw })`,
      { component: A2A_COMPONENT, option: 'input' },
    );
  }
  for (const key of ['taskId', 'contextId'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new ConfigError(`A2A ${method}: ${key} must be a non-empty string`, {
        component: A2A_COMPONENT,
        option: key,
      });
    }
  }
  return {
    messageId: randomUUID(),
    role: 'ROLE_USER',
    parts,
    ...(options.contextId !== undefined && { contextId: options.contextId }),
    ...(options.taskId !== undefined && { taskId: options.taskId }),
  };
}
