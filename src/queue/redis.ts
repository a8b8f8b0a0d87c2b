import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { QueueError } from './queue-error';

/** Where Redis is: a `redis://` / `rediss://` URL, or ioredis options (host, port, tls, …). */
export type RedisConnection = string | RedisOptions;

/** Reports background connection errors (a dropped connection that ioredis will retry). */
export type ErrorListener = (error: Error) => void;

/** Checks the shape of a connection (`invalid-options`) without connecting. */
export function checkConnection(connection: unknown): RedisConnection {
  if (typeof connection === 'string') {
    if (!/^rediss?:\/\//.test(connection))
      throw new QueueError(
        'connection must be a redis:// or rediss:// URL, or ioredis options ({ host, port })',
        { reason: 'invalid-options' },
      );
    return connection;
  }
  if (typeof connection === 'object' && connection !== null && !Array.isArray(connection))
    return connection;
  throw new QueueError('connection is required: a redis:// URL or ioredis options', {
    reason: 'invalid-options',
  });
}

/**
 * A new ioredis client for `connection`. Commands wait across reconnects
 * (`maxRetriesPerRequest: null`, as BullMQ workers require), so a dropped connection delays work
 * instead of failing it; errors go to `onError` (never an unhandled `error` event).
 */
export function connectRedis(
  connection: RedisConnection,
  onError: ErrorListener,
  name: string,
  autoPipeline = false,
): Redis {
  const base = {
    maxRetriesPerRequest: null,
    connectionName: name,
    enableAutoPipelining: autoPipeline,
  };
  const checked = checkConnection(connection);
  const client =
    typeof checked === 'string' ? new Redis(checked, base) : new Redis({ ...checked, ...base });
  client.on('error', onError);
  return client;
}

/** Closes a client: QUIT when connected, else disconnect (never waits on a dead server). */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    await client.quit().catch(() => {
      client.disconnect();
    });
  } else client.disconnect();
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** Checks a queue name, lane or prefix: letters, digits, `_`, `.`, `-` (BullMQ forbids `:`). */
export function checkName(value: unknown, what: string): string {
  if (typeof value !== 'string' || !NAME.test(value))
    throw new QueueError(
      `${what} must be 1–100 letters, digits, "_", "." or "-", got ${JSON.stringify(value)}`,
      { reason: 'invalid-options' },
    );
  return value;
}

/** The Redis keys golem/queue keeps beside BullMQ's, all under `<prefix>:<name>:`. */
export class QueueKeys {
  constructor(
    readonly prefix: string,
    readonly name: string,
  ) {}

  /** The BullMQ queue of `lane` (the default lane is the queue name itself). */
  queueOf(lane: string): string {
    return lane === 'default' ? this.name : `${this.name}.${lane}`;
  }

  private key(kind: string, runId: string): string {
    return `${this.prefix}:${this.name}:golem:${kind}:${runId}`;
  }

  /** The run's feed (a Redis stream) and the channel its entries are published on. */
  feed(runId: string): string {
    return this.key('feed', runId);
  }

  /** The run's feed sequence counter. */
  feedSeq(runId: string): string {
    return this.key('seq', runId);
  }

  /** The run's cancellation marker. */
  cancel(runId: string): string {
    return this.key('cancel', runId);
  }

  /** Which job carries the run now (`<lane> <job id>`). */
  job(runId: string): string {
    return this.key('job', runId);
  }

  /** The channel workers listen on for cancellations. */
  control(): string {
    return `${this.prefix}:${this.name}:golem:control`;
  }
}
