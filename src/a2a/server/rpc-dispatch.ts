import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isRecord } from '../../core/kit/guards';
import { A2AProtocolError } from '../a2a-error';
import { parseListTasksParams, parseMessage, parsePushConfig } from '../wire-check';
import type { Message, SendMessageParams, TaskPushNotificationConfig } from '../wire-types';
import type { RpcId } from '../rpc-types';
import { A2A_ERROR_CODES, A2A_METHODS, A2A_PUSH_METHODS } from '../wire-types';
import { replyRpcResult } from './http-reply';
import { promptOf, resumeResultsOf } from './message-input';
import { checkedPushUrl, publicConfig, type PushConfigs } from './push-configs';
import { recoverTask } from './run-recovery';
import type { PushNotificationOptions } from './server-options';
import { startRun } from './task-runner';
import { restoreTask } from './stored-task';
import { listTasks, type ListContext } from './task-list';
import { streamTask } from './task-stream';
import {
  isTerminal,
  setStatus,
  settled,
  taskSnapshot,
  type TaskRecord,
  type TaskRegistry,
} from './task-registry';

/** Push notifications, when the server has them. Internal. */
export interface PushContext {
  readonly options: PushNotificationOptions;
  readonly configs: PushConfigs;
}

/** What the dispatcher works with. Internal. */
export interface DispatchContext extends ListContext {
  readonly tasks: TaskRegistry;
  /** Push notifications; undefined: not supported. */
  readonly push: PushContext | undefined;
  /** The SSE keep-alive period in ms (0: none). */
  readonly keepAliveMs: number;
}

function params(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new A2AProtocolError('A2A: params must be an object');
  return value;
}

function taskIdOf(value: unknown): string {
  const p = params(value);
  if (typeof p.id !== 'string' || p.id === '') {
    throw new A2AProtocolError('A2A: params.id must be the task id (a non-empty string)');
  }
  return p.id;
}

function nonEmpty(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new A2AProtocolError(`A2A: ${path} must be a non-empty string`);
  }
  return value;
}

function historyLengthOf(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new A2AProtocolError(`A2A: ${path} must be a non-negative integer`);
  }
  return value;
}

type SendParams = SendMessageParams & {
  historyLength?: number;
  push?: TaskPushNotificationConfig;
};

function sendParams(value: unknown): SendParams {
  const p = params(value);
  const message = parseMessage(p.message, 'params.message');
  if (message.role !== 'ROLE_USER') {
    throw new A2AProtocolError('A2A: params.message.role must be ROLE_USER');
  }
  const configuration = p.configuration === undefined ? {} : params(p.configuration);
  if (configuration.returnImmediately !== undefined) {
    if (typeof configuration.returnImmediately !== 'boolean') {
      throw new A2AProtocolError('A2A: params.configuration.returnImmediately must be a boolean');
    }
  }
  const historyLength = historyLengthOf(
    configuration.historyLength,
    'params.configuration.historyLength',
  );
  // A2A 1.0 names it taskPushNotificationConfig; 0.3 clients send pushNotificationConfig.
  const rawPush = configuration.taskPushNotificationConfig ?? configuration.pushNotificationConfig;
  const push =
    rawPush === undefined || rawPush === null
      ? undefined
      : parsePushConfig(rawPush, 'params.configuration.taskPushNotificationConfig');
  return {
    message,
    configuration: {
      ...(configuration.returnImmediately === true && { returnImmediately: true }),
    },
    ...(historyLength !== undefined && { historyLength }),
    ...(push !== undefined && { push }),
  };
}

/** The server's push notifications; PushNotificationNotSupported (-32003) without them. */
function requirePush(context: DispatchContext): PushContext {
  if (context.push === undefined) {
    throw new A2AProtocolError(
      'A2A: push notifications are not supported by this server',
      A2A_ERROR_CODES.pushNotificationNotSupported,
    );
  }
  return context.push;
}

/**
 * The task `id` of this endpoint's agent and of this caller (`owner`), from memory or, with a
 * store, from the stored run; otherwise TaskNotFound (another agent's or owner's task included).
 */
async function knownTask(
  context: DispatchContext,
  id: string,
  owner: string | undefined,
): Promise<TaskRecord> {
  const held = context.tasks.get(id);
  if (held !== undefined) {
    if (held.agentKey === context.agentKey && held.owner === owner) return held;
  } else {
    const store = context.store ?? context.agent.store;
    const restored =
      store === undefined
        ? undefined
        : await restoreTask(context.tasks, store, context.agent, context.agentKey, id, owner);
    if (restored !== undefined && store !== undefined) {
      recoverTask(context, restored.record, restored.run, store);
      return restored.record;
    }
  }
  throw new A2AProtocolError(`A2A: task ${id} not found`, A2A_ERROR_CODES.taskNotFound);
}

interface Begun {
  readonly record: TaskRecord;
  readonly start: () => void;
}

async function begin(
  context: DispatchContext,
  message: Message,
  owner: string | undefined,
  push?: TaskPushNotificationConfig,
): Promise<Begun> {
  const pushing = push === undefined ? undefined : requirePush(context);
  if (message.taskId !== undefined) {
    const record = await knownTask(context, message.taskId, owner);
    if (record.state !== 'TASK_STATE_INPUT_REQUIRED') {
      throw new A2AProtocolError(
        `A2A: task ${record.id} is ${record.state}: only a task in TASK_STATE_INPUT_REQUIRED takes another message`,
        A2A_ERROR_CODES.unsupportedOperation,
      );
    }
    if (message.contextId !== undefined && message.contextId !== record.contextId) {
      throw new A2AProtocolError(`A2A: message.contextId does not match task ${record.id}`);
    }
    const results = resumeResultsOf(message, record);
    // Claim the task before any await: a second message for it is refused, and the stream's
    // first snapshot already shows it working again.
    const asked = { state: record.state, message: record.statusMessage, at: record.timestamp };
    record.state = 'TASK_STATE_WORKING';
    record.statusMessage = undefined;
    if (push !== undefined && pushing !== undefined) {
      try {
        pushing.configs.put(
          record,
          push,
          await checkedPushUrl(push.url, record.id, pushing.options),
        );
      } catch (error) {
        record.state = asked.state;
        record.statusMessage = asked.message;
        record.timestamp = asked.at;
        throw error;
      }
    }
    return withRun(record, message, () => {
      startRun(record, context.agent, '', context, owner, results);
    });
  }
  const prompt = promptOf(message);
  const id = randomUUID();
  const url =
    push === undefined || pushing === undefined
      ? undefined
      : await checkedPushUrl(push.url, id, pushing.options);
  const record = context.tasks.create(
    id,
    message.contextId ?? randomUUID(),
    context.agentKey,
    owner,
  );
  if (push !== undefined && pushing !== undefined && url !== undefined) {
    pushing.configs.put(record, push, url);
  }
  return withRun(record, message, () => {
    startRun(record, context.agent, prompt, context, owner);
  });
}

/** Records the message in the task's history; `start` runs the agent. */
function withRun(record: TaskRecord, message: Message, start: () => void): Begun {
  record.history.push({ ...message, taskId: record.id, contextId: record.contextId });
  return { record, start };
}

/**
 * Runs one JSON-RPC call and writes its response (plain JSON, or SSE for the streaming methods).
 * Failures the client caused throw {@link A2AProtocolError}; the caller turns them into errors.
 */
export async function dispatch(
  context: DispatchContext,
  res: ServerResponse,
  id: RpcId,
  method: string,
  rawParams: unknown,
  owner: string | undefined,
): Promise<void> {
  switch (method) {
    case A2A_METHODS.send: {
      const p = sendParams(rawParams);
      const { record, start } = await begin(context, p.message, owner, p.push);
      start();
      if (p.configuration?.returnImmediately !== true) await settled(record);
      replyRpcResult(res, id, { task: taskSnapshot(record, p.historyLength) });
      return;
    }
    case A2A_METHODS.stream: {
      const p = sendParams(rawParams);
      const { record, start } = await begin(context, p.message, owner, p.push);
      streamTask(res, id, record, start, context.keepAliveMs);
      return;
    }
    case A2A_METHODS.getTask: {
      const p = params(rawParams);
      const record = await knownTask(context, taskIdOf(p), owner);
      replyRpcResult(
        res,
        id,
        taskSnapshot(record, historyLengthOf(p.historyLength, 'params.historyLength')),
      );
      return;
    }
    case A2A_METHODS.cancelTask: {
      const record = await knownTask(context, taskIdOf(rawParams), owner);
      if (isTerminal(record.state)) {
        throw new A2AProtocolError(
          `A2A: task ${record.id} is ${record.state} and cannot be canceled`,
          A2A_ERROR_CODES.taskNotCancelable,
        );
      }
      const controller = record.controller;
      record.controller = undefined;
      setStatus(record, 'TASK_STATE_CANCELED');
      controller?.abort();
      replyRpcResult(res, id, taskSnapshot(record));
      return;
    }
    case A2A_METHODS.subscribe: {
      const record = await knownTask(context, taskIdOf(rawParams), owner);
      if (isTerminal(record.state)) {
        throw new A2AProtocolError(
          `A2A: task ${record.id} is ${record.state}: read it with GetTask`,
          A2A_ERROR_CODES.unsupportedOperation,
        );
      }
      streamTask(res, id, record, undefined, context.keepAliveMs);
      return;
    }
    case A2A_METHODS.listTasks:
      replyRpcResult(res, id, await listTasks(context, parseListTasksParams(rawParams), owner));
      return;
    case A2A_PUSH_METHODS.create: {
      const push = requirePush(context);
      const config = parsePushConfig(rawParams, 'params');
      if (config.taskId === undefined) {
        throw new A2AProtocolError('A2A: params.taskId must be the task id (a non-empty string)');
      }
      const record = await knownTask(context, config.taskId, owner);
      const url = await checkedPushUrl(config.url, record.id, push.options);
      replyRpcResult(res, id, publicConfig(push.configs.put(record, config, url)));
      return;
    }
    case A2A_PUSH_METHODS.get: {
      const push = requirePush(context);
      const p = params(rawParams);
      const record = await knownTask(context, nonEmpty(p.taskId, 'params.taskId'), owner);
      replyRpcResult(res, id, publicConfig(push.configs.get(record, nonEmpty(p.id, 'params.id'))));
      return;
    }
    case A2A_PUSH_METHODS.list: {
      const push = requirePush(context);
      const p = params(rawParams);
      const record = await knownTask(context, nonEmpty(p.taskId, 'params.taskId'), owner);
      replyRpcResult(res, id, {
        configs: push.configs.list(record).map(publicConfig),
        nextPageToken: '',
      });
      return;
    }
    case A2A_PUSH_METHODS.delete: {
      const push = requirePush(context);
      const p = params(rawParams);
      const record = await knownTask(context, nonEmpty(p.taskId, 'params.taskId'), owner);
      push.configs.delete(record, nonEmpty(p.id, 'params.id'));
      replyRpcResult(res, id, null);
      return;
    }
    case A2A_METHODS.getExtendedCard:
      throw new A2AProtocolError(
        'A2A: this agent has no extended card',
        A2A_ERROR_CODES.extendedCardNotConfigured,
      );
    default:
      throw new A2AProtocolError(
        `A2A: unknown method ${JSON.stringify(method.slice(0, 100))}`,
        A2A_ERROR_CODES.methodNotFound,
      );
  }
}
