import { randomUUID } from 'node:crypto';
import type { FetchLike } from '../../core/index';
import type { StreamResponse } from '../wire-types';
import type { PushConfigs, PushTarget } from './push-configs';
import type { TaskRecord } from './task-registry';

/** The media type of a notification body: one A2A stream event as JSON. */
const NOTIFICATION_TYPE = 'application/a2a+json';

/** The header carrying a config's token (as the A2A SDKs send it). */
export const NOTIFICATION_TOKEN_HEADER = 'X-A2A-Notification-Token';

/** How deliveries go out. Internal. */
export interface DeliverySettings {
  readonly fetch: FetchLike;
  readonly timeoutMs: number;
  /** Told about every failed delivery (the error names no query, token nor credentials). */
  readonly onError: ((error: unknown, info: { taskId: string; ref: string }) => void) | undefined;
}

/** Where a failure says it was sending to: the URL without its query, fragment or credentials. */
function shownUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** Why a POST failed, in words that carry nothing of the request. */
function reason(error: unknown, timeoutMs: number): string {
  // The timeout's reason is a DOMException, maybe of another realm: read its name, not its class.
  const named = typeof error === 'object' && error !== null ? (error as { name?: unknown }) : {};
  if (named.name === 'TimeoutError' || named.name === 'AbortError') {
    return `no answer within ${String(timeoutMs)} ms`;
  }
  const cause = (named as { cause?: { code?: unknown } }).cause;
  const code =
    typeof cause?.code === 'string' && /^[A-Z_]+$/.test(cause.code) ? ` (${cause.code})` : '';
  return `the request failed${code}`;
}

/**
 * Sends a task's status and artifact updates to its push notification configs: each event is
 * POSTed (the stream event JSON, `{ statusUpdate }` or `{ artifactUpdate }`) to every config of
 * the task, with the config's token in `X-A2A-Notification-Token` and its `authentication` as
 * `Authorization: <scheme> <credentials>`. Events of one task go out in order (a queue per task);
 * each POST is bounded by `timeoutMs`; a failed one is reported to `onError` and never touches
 * the task. Internal.
 */
export class PushDelivery {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly configs: PushConfigs,
    private readonly settings: DeliverySettings,
  ) {}

  /** Queues `event` of `record` for its configs (the registry's observer). */
  readonly observe = (record: TaskRecord, event: StreamResponse): void => {
    if (!('statusUpdate' in event) && !('artifactUpdate' in event)) return;
    const targets = this.configs.list(record);
    if (targets.length === 0) return;
    const body = JSON.stringify(event);
    const taskId = record.id;
    const previous = this.queues.get(taskId) ?? Promise.resolve();
    const next = previous.then(async () => {
      await Promise.all(targets.map((target) => this.deliver(taskId, target, body)));
    });
    this.queues.set(taskId, next);
    void next.finally(() => {
      if (this.queues.get(taskId) === next) this.queues.delete(taskId);
    });
  };

  /** Resolves once every delivery queued so far for the task is done (tests, shutdown). */
  async idle(taskId: string): Promise<void> {
    await this.queues.get(taskId);
  }

  private async deliver(taskId: string, target: PushTarget, body: string): Promise<void> {
    const { config } = target;
    const headers: Record<string, string> = { 'content-type': NOTIFICATION_TYPE };
    if (config.token !== undefined) headers[NOTIFICATION_TOKEN_HEADER] = config.token;
    const auth = config.authentication;
    if (auth !== undefined) {
      headers.authorization =
        auth.credentials === undefined ? auth.scheme : `${auth.scheme} ${auth.credentials}`;
    }
    const { timeoutMs } = this.settings;
    let problem: string | undefined;
    try {
      const response = await this.settings.fetch(target.url.href, {
        method: 'POST',
        headers,
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The answer's content does not matter: never read it (a receiver could send gigabytes).
      await response.body?.cancel().catch(() => undefined);
      if (!response.ok) problem = `the receiver answered HTTP ${String(response.status)}`;
    } catch (error) {
      problem = reason(error, timeoutMs);
    }
    if (problem === undefined) return;
    const error = new Error(
      `A2A push notification for task ${taskId} to ${shownUrl(target.url)} failed: ${problem}`,
    );
    try {
      this.settings.onError?.(error, { taskId, ref: randomUUID().slice(0, 8) });
    } catch {
      // A failing error hook must not stop later deliveries.
    }
  }
}
