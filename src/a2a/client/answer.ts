import { ConfigError } from '../../core/index';
import type { A2AConnection, A2AInput } from './connection-types';
import { peerText } from './failures';
import { A2A_COMPONENT, type A2AAnswer, type A2ACallOptions } from './options';
import { pendingA2ATask, type PendingA2ATask } from './pending-task';
import { endedText, followTask, needsInput, outcomeText, statusText } from './task-outcome';

/**
 * Sends `reply` to the remote task a paused call waits for (`call` is a `PendingToolCall` of
 * `result.pending.external`, or the task from {@link pendingA2ATask}) and follows it to its next
 * settled state.
 */
export async function answerTask(
  connection: A2AConnection,
  call: { readonly reason: string } | PendingA2ATask,
  reply: A2AInput,
  options: A2ACallOptions = {},
): Promise<A2AAnswer> {
  const task = 'taskId' in call ? call : pendingA2ATask(call);
  if (task === undefined || typeof task.taskId !== 'string' || task.taskId === '') {
    throw new ConfigError(
      'A2A answer: the call did not pause on a remote A2A task (its reason names none); pass a pending call of a connection.asTool() tool',
      { component: A2A_COMPONENT, option: 'call' },
    );
  }
  const outcome = await followTask(connection, reply, {
    taskId: task.taskId,
    ...(task.contextId !== '' && { contextId: task.contextId }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  if (outcome.kind === 'message') {
    return { done: true, result: outcomeText(outcome), state: 'TASK_STATE_COMPLETED' };
  }
  if (needsInput(outcome)) {
    return {
      done: false,
      task: {
        taskId: outcome.id,
        contextId: outcome.contextId,
        needs: outcome.status.state === 'TASK_STATE_AUTH_REQUIRED' ? 'authorization' : 'input',
        question: statusText(outcome),
      },
    };
  }
  const result =
    outcome.status.state === 'TASK_STATE_COMPLETED'
      ? outcomeText(outcome)
      : endedText(peerText(connection.card.name, 100), outcome);
  return { done: true, result, state: outcome.status.state };
}
