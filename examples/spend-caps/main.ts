/**
 * Spend caps shared by two worker processes: each runs the same agent behind `spendCap`, with the
 * totals in Redis (`redisSpendStore`), so the owner's daily cap holds across both. The calls
 * alternate between the workers until the cap refuses one before it reaches the model; then the
 * spend report sums the ledger. Needs Redis (GOLEM_REDIS_URL, default redis://127.0.0.1:6379).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { spendReport } from 'golem/middleware';
import { redisSpendStore } from 'golem/stores/redis';
import { Redis } from 'ioredis';
import { REDIS_URL } from './settings';

const ROOT = join(__dirname, '..', '..');

type Reply = Record<string, unknown>;

/** A worker process and a way to ask it one thing at a time. */
interface Worker {
  name: string;
  child: ChildProcess;
  ask(message: Reply): Promise<Reply>;
}

function start(name: string, prefix: string): Promise<Worker> {
  const child = fork(join(__dirname, 'worker.ts'), [], {
    cwd: ROOT,
    execArgv: ['-r', '@swc-node/register'],
    env: { ...process.env, GOLEM_EXAMPLE_PREFIX: prefix },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = (message: Reply): Promise<Reply> =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send(message);
    });
  return new Promise((resolve, reject) => {
    child.once('message', () => {
      resolve({ name, child, ask });
    });
    child.once('exit', (code) => {
      reject(new Error(`worker ${name} exited (${String(code)}) before it was ready`));
    });
  });
}

const usd = (n: number) => `${n.toFixed(4)} USD`;

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const prefix = `golem-example-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(REDIS_URL);
  const workers: Worker[] = [];
  try {
    workers.push(...(await Promise.all([start('A', prefix), start('B', prefix)])));
    log('two worker processes share one cap: 0.01 USD per owner per day (in Redis)');
    for (let i = 0; i < 5; i++) {
      const worker = workers[i % 2] as Worker;
      const reply = await worker.ask({ prompt: `Ticket ${i + 1}`, owner: 'acme' });
      if (typeof reply.answered === 'string')
        log(`worker ${worker.name}, ticket ${i + 1}: answered, cost ${usd(Number(reply.cost))}`);
      else if (typeof reply.refused === 'string') {
        log(
          `worker ${worker.name}, ticket ${i + 1}: refused before the model call (stage ${String(reply.stage)})`,
        );
        log(`  BudgetExceededError: ${reply.refused}`);
        log(`  spent so far: ${usd(Number(reply.spent))}`);
      } else throw new Error(`worker ${worker.name} failed: ${String(reply.failed)}`);
    }
    const rows = await spendReport(redisSpendStore({ client: redis, prefix }), {
      period: 'day',
      by: ['owner', 'agent', 'model'],
    });
    log('spend report (today):');
    for (const row of rows)
      log(
        `  ${row.owner ?? '-'} / ${row.agent ?? '-'} / ${row.model ?? '-'}: ${usd(row.cost)}, ${row.calls} calls, ${row.outputTokens} output tokens`,
      );
  } finally {
    await Promise.all(
      workers.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) {
              resolve();
              return;
            }
            child.once('exit', () => {
              resolve();
            });
            child.send({ close: true });
          }),
      ),
    );
    // The example's keys go with it (a real deployment keeps its prefix for good).
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    redis.disconnect();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
