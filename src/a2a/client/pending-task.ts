import { isRecord } from '../../core/kit/guards';

/** The remote task behind a golem tool call that paused on it. */
export interface PendingA2ATask {
  /** The remote task's id. */
  readonly taskId: string;
  /** The remote task's context. */
  readonly contextId: string;
  /** What the remote agent waits for: `input`, or `authorization`. */
  readonly needs: 'input' | 'authorization';
  /** What the remote agent said it needs (sanitized, bounded; '' when it said nothing). */
  readonly question: string;
}

const PREFIX = 'A2A task ';
const SHAPE = /^A2A task (\{.*?\}) needs (input|authorization)(?:: ([\s\S]*))?$/;

/**
 * The `reason` of a call deferred on a remote task: human-readable, and carrying the task's ids so
 * the pause can be answered from its stored record alone (in another process, after a restart).
 */
export function pendingReason(task: PendingA2ATask): string {
  const ids = JSON.stringify({ taskId: task.taskId, contextId: task.contextId });
  return `${PREFIX}${ids} needs ${task.needs}${task.question === '' ? '' : `: ${task.question}`}`;
}

/**
 * The remote A2A task a paused call waits for, read from the call's `reason` (a `PendingToolCall`
 * of `result.pending.external`); `undefined` for a call that did not pause on an A2A task.
 */
export function pendingA2ATask(call: { readonly reason: string }): PendingA2ATask | undefined {
  const reason: unknown = (call as { reason?: unknown } | undefined)?.reason;
  if (typeof reason !== 'string' || !reason.startsWith(PREFIX)) return undefined;
  const match = SHAPE.exec(reason);
  if (match === null) return undefined;
  let ids: unknown;
  try {
    ids = JSON.parse(match[1] as string);
  } catch {
    return undefined;
  }
  if (!isRecord(ids) || typeof ids.taskId !== 'string' || typeof ids.contextId !== 'string') {
    return undefined;
  }
  if (ids.taskId === '') return undefined;
  return {
    taskId: ids.taskId,
    contextId: ids.contextId,
    needs: match[2] === 'authorization' ? 'authorization' : 'input',
    question: match[3] ?? '',
  };
}
