import {
  INTERRUPTED_STATES,
  TERMINAL_STATES,
  type StreamResponse,
  type TaskState,
} from '../wire-types';

/** Whether a task in `state` will not move on by itself (finished, or waiting for the client). */
export function isSettled(state: TaskState): boolean {
  return TERMINAL_STATES.includes(state) || INTERRUPTED_STATES.includes(state);
}

/** Whether a stream ends after `update`: a direct reply, or a task or status in a settled state. */
export function endsStream(update: StreamResponse): boolean {
  if ('message' in update) return true;
  if ('task' in update) return isSettled(update.task.status.state);
  if ('statusUpdate' in update) return isSettled(update.statusUpdate.status.state);
  return false;
}

/** The task an update belongs to, when it names one. */
export function taskIdOf(update: StreamResponse): string | undefined {
  if ('task' in update) return update.task.id;
  if ('statusUpdate' in update) return update.statusUpdate.taskId;
  if ('artifactUpdate' in update) return update.artifactUpdate.taskId;
  return update.message.taskId;
}
