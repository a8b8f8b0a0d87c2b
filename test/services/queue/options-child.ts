/**
 * A process that configures `runQueue` and `runWorker` wrongly, once per case, and reports each
 * refusal on stdout as `<reason> <message>`. It ends there: with nothing left open it exits by itself — the parent
 * asserts it does.
 */
import { Agent } from 'golem';
import { QueueError, runQueue, runWorker } from 'golem/queue';
import type { RunQueueOptions, RunWorkerOptions } from 'golem/queue';
import { memoryStore } from 'golem/stores/memory';
import { FunctionModel, textResponse } from 'golem/testing';

const connection = process.env.GOLEM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const store = memoryStore();

const cases: Record<string, unknown>[] = [
  { connection, store, limits: { promptBytes: -1 } },
  { connection, store, attempts: 0 },
  { connection, store, backoffMs: 1.5 },
  { connection, store, infoTtlMs: -1 },
  { connection, store, defaults: { timeout: Number.NaN } },
  { connection, store, feed: { maxLength: 0 } },
  { connection, store, route: 'openai' },
  { connection, store, prefix: 'has:colon' },
  { connection },
  { connection: 'http://127.0.0.1:6379', store },
];

const echo = new Agent({ name: 'echo', model: new FunctionModel(() => textResponse('hi')) });
const workerCases: Record<string, unknown>[] = [
  { connection, agents: [echo] },
  { connection, store, agents: [echo], timeout: -1 },
  { connection, store, agents: [echo], stalled: { lockDuration: 0 } },
  { connection, store, agents: [echo], feed: { ttlMs: 'a day' } },
];

function report(error: unknown): void {
  process.stdout.write(
    QueueError.is(error) ? `${error.reason} ${error.message}\n` : `other ${String(error)}\n`,
  );
}

async function main(): Promise<void> {
  for (const options of cases) {
    try {
      runQueue(options as unknown as RunQueueOptions);
      process.stdout.write('accepted\n');
    } catch (error) {
      report(error);
    }
  }
  for (const options of workerCases) {
    try {
      await runWorker(options as unknown as RunWorkerOptions);
      process.stdout.write('accepted\n');
    } catch (error) {
      report(error);
    }
  }
}

void main();
