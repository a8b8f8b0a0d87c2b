import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cancellationError } from '../core/errors/cancellation';
import type { ToolUpdate } from '../core/tool/context';
import { SDK_TIMEOUT } from './deadline';
import { McpTaskError } from './feature-errors';
import { typedError } from './map-error';
import type { McpSession } from './session';

/** Bounds on the server's suggested poll interval, in ms. */
export const MIN_TASK_POLL_MS = 10;
/** A larger suggestion is capped (a hostile server cannot park the call). */
export const MAX_TASK_POLL_MS = 5_000;

/** Whether the server declared task support for `tools/call` in the handshake. */
export function serverRunsToolTasks(session: McpSession): boolean {
  const tasks = session.client.getServerCapabilities()?.tasks as
    { requests?: { tools?: { call?: unknown } } } | undefined;
  return tasks?.requests?.tools?.call !== undefined;
}

/**
 * Calls a task tool through MCP tasks with the SDK's requests: `tools/call` with a `task` asks the
 * server to create a task; `tasks/get` polls its status (each status reported as progress); a
 * `completed` task's result comes from `tasks/result` (also when the task needs input: the server
 * delivers its elicitation or sampling requests while that request is open). `signal` aborting
 * cancels the task on the server (`tasks/cancel`, best effort) and rejects with the cancellation.
 * The waits between polls end with the signal or when the client closes.
 */
export async function callAsTask(
  session: McpSession,
  toolName: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  report: ((update: ToolUpdate) => void) | undefined,
): Promise<CallToolResult> {
  const { client, sdk } = session;
  const options = { signal, timeout: SDK_TIMEOUT };
  const failed = (message: string, taskId?: string, cause?: unknown) =>
    new McpTaskError(
      {
        server: session.name,
        toolName,
        side: 'server',
        message,
        ...(taskId !== undefined && { taskId }),
      },
      { cause },
    );
  let taskId: string | undefined;
  try {
    const created = await client.request(
      { method: 'tools/call', params: { name: toolName, arguments: args } },
      sdk.CreateTaskResultSchema,
      { ...options, task: {} },
    );
    const id = created.task.taskId;
    taskId = id;
    for (let polls = 0; ; polls++) {
      const task = await client.experimental.tasks.getTask(id, options);
      report?.({
        kind: 'progress',
        progress: polls + 1,
        message: `task ${task.status}${task.statusMessage === undefined ? '' : `: ${task.statusMessage}`}`,
      });
      if (task.status === 'completed' || task.status === 'input_required') {
        return await client.experimental.tasks.getTaskResult(id, sdk.CallToolResultSchema, options);
      }
      if (task.status === 'failed')
        throw failed(
          `the task failed${task.statusMessage === undefined ? '' : `: ${task.statusMessage}`}`,
          taskId,
        );
      if (task.status === 'cancelled') throw failed('the task was cancelled', id);
      const suggested = typeof task.pollInterval === 'number' ? task.pollInterval : 1000;
      await pause(
        Math.min(MAX_TASK_POLL_MS, Math.max(MIN_TASK_POLL_MS, suggested)),
        signal,
        session.closeSignal,
      );
    }
  } catch (error) {
    if (signal.aborted || session.closeSignal.aborted) {
      if (taskId !== undefined && !session.closed) void cancelQuietly(session, taskId);
      throw signal.aborted
        ? cancellationError(signal)
        : typedError(session.errors, 'tools/call', error);
    }
    if (McpTaskError.is(error)) throw error;
    const typed = typedError(
      session.errors,
      taskId === undefined ? 'tools/call' : 'tasks/get',
      error,
    );
    throw failed(typed.message, taskId, typed);
  }
}

async function cancelQuietly(session: McpSession, taskId: string): Promise<void> {
  const done = new AbortController();
  const timer = setTimeout(() => {
    done.abort();
  }, 1000);
  try {
    await session.client.experimental.tasks.cancelTask(taskId, {
      signal: done.signal,
      timeout: SDK_TIMEOUT,
    });
  } catch {
    // Best effort: the task's TTL ends it on the server anyway.
  } finally {
    clearTimeout(timer);
  }
}

/** Waits `ms`, ending early (rejecting) when either signal aborts. */
function pause(ms: number, signal: AbortSignal, closed: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      closed.removeEventListener('abort', stop);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      closed.removeEventListener('abort', stop);
      resolve();
    }, ms);
    if (signal.aborted || closed.aborted) {
      stop();
      return;
    }
    signal.addEventListener('abort', stop, { once: true });
    closed.addEventListener('abort', stop, { once: true });
  });
}
