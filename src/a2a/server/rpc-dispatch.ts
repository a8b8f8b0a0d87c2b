import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isRecord } from '../../core/kit/guards';
import { A2AProtocolError, parseMessage } from '../wire-check';
import type { Message, RpcId, SendMessageParams } from '../wire-types';
import { A2A_ERROR_CODES, A2A_METHODS } from '../wire-types';
import { replyRpcResult } from './http-reply';
import { promptOf, resumeResultsOf } from './message-input';
import type { ServableAgent } from './servable-agent';
import { startRun, type RunContext } from './task-runner';
import { restoreTask } from './stored-task';
import { streamTask } from './task-stream';
import {
  isTerminal,
  setStatus,
  settled,
  taskSnapshot,
  type TaskRecord,
  type TaskRegistry,
} from './task-registry';

/** What the dispatcher works with. Internal. */
export interface DispatchContext extends RunContext {
  readonly tasks: TaskRegistry;
  /** The key of the agent this endpoint serves. */
  readonly agentKey: string;
  readonly agent: ServableAgent;
}

const UNSUPPORTED = new Set<string>([
  A2A_METHODS.listTasks,
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
]);

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

function historyLengthOf(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new A2AProtocolError(`A2A: ${path} must be a non-negative integer`);
  }
  return value;
}

function sendParams(value: unknown): SendMessageParams & { historyLength?: number } {
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
  return {
    message,
    configuration: {
      ...(configuration.returnImmediately === true && { returnImmediately: true }),
    },
    ...(historyLength !== undefined && { historyLength }),
  };
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
    if (restored !== undefined) return restored;
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
): Promise<Begun> {
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
    return withRun(record, message, () => {
      startRun(record, context.agent, '', context, owner, results);
    });
  }
  const prompt = promptOf(message);
  const record = context.tasks.create(
    randomUUID(),
    message.contextId ?? randomUUID(),
    context.agentKey,
    owner,
  );
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
      const { record, start } = await begin(context, p.message, owner);
      start();
      if (p.configuration?.returnImmediately !== true) await settled(record);
      replyRpcResult(res, id, { task: taskSnapshot(record, p.historyLength) });
      return;
    }
    case A2A_METHODS.stream: {
      const p = sendParams(rawParams);
      const { record, start } = await begin(context, p.message, owner);
      streamTask(res, id, record, start);
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
      streamTask(res, id, record);
      return;
    }
    case A2A_METHODS.getExtendedCard:
      throw new A2AProtocolError(
        'A2A: this agent has no extended card',
        A2A_ERROR_CODES.extendedCardNotConfigured,
      );
    default:
      if (UNSUPPORTED.has(method)) {
        throw new A2AProtocolError(
          `A2A: ${method} is not supported by this server`,
          A2A_ERROR_CODES.unsupportedOperation,
        );
      }
      throw new A2AProtocolError(
        `A2A: unknown method ${JSON.stringify(method.slice(0, 100))}`,
        A2A_ERROR_CODES.methodNotFound,
      );
  }
}
