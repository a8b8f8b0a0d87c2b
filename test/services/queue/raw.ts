/** Direct BullMQ access for tests: read a job's state and reason, or add a payload by hand. */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { REDIS_URL } from '../redis';

/** The BullMQ queue golem/queue uses for `lane` under `prefix` (queue name `golem`). */
export function rawQueue(
  prefix: string,
  lane = 'default',
): { queue: Queue; close(): Promise<void> } {
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  connection.on('error', () => undefined);
  const queue = new Queue(lane === 'default' ? 'golem' : `golem.${lane}`, { connection, prefix });
  return {
    queue,
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}

/** A job's state and failure reason. */
export async function jobReport(
  prefix: string,
  jobId: string,
): Promise<{ state: string; failedReason: string | undefined; attemptsMade: number }> {
  const raw = rawQueue(prefix);
  try {
    const job = await raw.queue.getJob(jobId);
    if (job === undefined) return { state: 'missing', failedReason: undefined, attemptsMade: 0 };
    return {
      state: await job.getState(),
      failedReason: job.failedReason === '' ? undefined : job.failedReason,
      attemptsMade: job.attemptsMade,
    };
  } finally {
    await raw.close();
  }
}
