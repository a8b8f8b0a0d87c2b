import { randomUUID } from 'node:crypto';
import { A2AProtocolError } from '../a2a-error';
import type { TaskPushNotificationConfig } from '../wire-types';
import { A2A_ERROR_CODES } from '../wire-types';
import type { PushNotificationOptions } from './server-options';
import type { TaskRecord } from './task-registry';

/** The most push notification configs one task holds. */
export const MAX_PUSH_CONFIGS_PER_TASK = 10;

/** One accepted push notification config. Internal. */
export interface PushTarget {
  /** The config as the client sent it, with its id and task id. */
  readonly config: TaskPushNotificationConfig & { readonly id: string; readonly taskId: string };
  /** Its URL, checked. */
  readonly url: URL;
}

/**
 * The URL of a config, checked: an http(s) URL without credentials that `allow` accepts for the
 * task; otherwise invalid params (the message never repeats the URL, which may carry secrets).
 */
export async function checkedPushUrl(
  raw: string,
  taskId: string,
  options: PushNotificationOptions,
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new A2AProtocolError('A2A: the push notification url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new A2AProtocolError('A2A: the push notification url must be an http(s) URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw new A2AProtocolError(
      'A2A: the push notification url must not carry credentials (send them in authentication)',
    );
  }
  if (!(await options.allow(url, taskId))) {
    throw new A2AProtocolError('A2A: this server does not send push notifications to that url');
  }
  return url;
}

/** A config as the server answers it: the credentials it was given are never sent back. */
export function publicConfig(target: PushTarget): TaskPushNotificationConfig {
  const { config } = target;
  return {
    id: config.id,
    taskId: config.taskId,
    url: config.url,
    ...(config.token !== undefined && { token: config.token }),
    ...(config.authentication !== undefined && {
      authentication: { scheme: config.authentication.scheme },
    }),
  };
}

/**
 * The push notification configs of a server's tasks, held in memory (they do not survive a
 * restart), at most {@link MAX_PUSH_CONFIGS_PER_TASK} per task and those of at most `maxTasks`
 * tasks (past it the oldest task's configs are dropped). Each task's configs belong to the task's
 * owner and endpoint: callers reach them only through a task they may read. Internal.
 */
export class PushConfigs {
  private readonly byTask = new Map<string, Map<string, PushTarget>>();

  constructor(private readonly maxTasks: number) {}

  /**
   * Stores `config` (already checked) for the task; one of the same id is replaced. A new one past
   * the per-task limit is invalid params.
   */
  put(record: TaskRecord, config: TaskPushNotificationConfig, url: URL): PushTarget {
    const id = config.id ?? randomUUID();
    let configs = this.byTask.get(record.id);
    if (configs !== undefined && !configs.has(id) && configs.size >= MAX_PUSH_CONFIGS_PER_TASK) {
      throw new A2AProtocolError(
        `A2A: task ${record.id} already has ${String(MAX_PUSH_CONFIGS_PER_TASK)} push notification configs`,
      );
    }
    if (configs === undefined) {
      configs = new Map();
      this.byTask.set(record.id, configs);
      this.evict();
    }
    const target: PushTarget = { config: { ...config, id, taskId: record.id }, url };
    configs.set(id, target);
    return target;
  }

  /** The task's config `id`; TaskNotFound when there is none. */
  get(record: TaskRecord, id: string): PushTarget {
    const target = this.byTask.get(record.id)?.get(id);
    if (target === undefined) {
      throw new A2AProtocolError(
        `A2A: task ${record.id} has no push notification config ${JSON.stringify(id.slice(0, 100))}`,
        A2A_ERROR_CODES.taskNotFound,
      );
    }
    return target;
  }

  /** Every config of the task, oldest first. */
  list(record: TaskRecord): PushTarget[] {
    return [...(this.byTask.get(record.id)?.values() ?? [])];
  }

  /** Deletes the task's config `id`; TaskNotFound when there is none. */
  delete(record: TaskRecord, id: string): void {
    this.get(record, id);
    const configs = this.byTask.get(record.id);
    configs?.delete(id);
    if (configs?.size === 0) this.byTask.delete(record.id);
  }

  private evict(): void {
    for (const id of this.byTask.keys()) {
      if (this.byTask.size <= this.maxTasks) return;
      this.byTask.delete(id);
    }
  }
}
