/**
 * Distributed runs: an HTTP process enqueues runs and streams their progress over server-sent
 * events; two worker processes execute them. A refund pauses for approval — its job ends with
 * the pending call — and the decision, posted to the HTTP process, is resumed by whichever worker
 * is free. Needs Redis (GOLEM_REDIS_URL, default redis://127.0.0.1:6379); the run store is a
 * SQLite file in a temporary folder and the model an offline stand-in.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { Redis } from 'ioredis';
import type { RunFeedEvent } from 'golem/queue';
import { REDIS_URL } from './settings';

const ROOT = join(__dirname, '..', '..');

/** Starts one of the example's processes; resolves with its first message (it is ready). */
function start(
  file: string,
  dir: string,
  prefix: string,
): Promise<[ChildProcess, Record<string, unknown>]> {
  const child = fork(join(__dirname, file), [dir], {
    cwd: ROOT,
    execArgv: ['-r', '@swc-node/register'],
    env: { ...process.env, GOLEM_EXAMPLE_PREFIX: prefix },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: Record<string, unknown>) => {
      resolve([child, message]);
    });
    child.once('exit', (code) => {
      reject(new Error(`${file} exited (${String(code)}) before it was ready`));
    });
  });
}

/** Reads a run's server-sent events until it settles; returns the last event id. */
async function stream(
  base: string,
  runId: string,
  log: (line: string) => void,
  after?: string,
): Promise<string | undefined> {
  const response = await fetch(`${base}/runs/${runId}/events`, {
    headers: after === undefined ? {} : { 'last-event-id': after },
  });
  let last: string | undefined;
  let text = '';
  const parser = createParser({
    onEvent(message) {
      last = message.id;
      const event = JSON.parse(message.data) as RunFeedEvent;
      if (event.type === 'delta') text += event.delta.content ?? '';
      else if (event.type === 'event') {
        const e = event.event;
        if (e.kind === 'model_end' && e.message?.toolCalls !== undefined)
          for (const call of e.message.toolCalls) log(`  model asks for ${call.name} ${call.args}`);
        if (e.kind === 'tool_end') log(`  tool ${e.toolName} → ${e.result ?? ''}`);
      } else if (event.type === 'queued') log(`  queued (${event.kind})`);
      else if (event.type === 'paused')
        for (const call of event.pending.approvals)
          log(`  paused: ${call.toolName} ${call.args} needs approval`);
      else if (event.type === 'completed') {
        log(`  streamed text: ${text}`);
        log('  completed');
      } else log(`  ${event.type}`);
    },
  });
  const decoder = new TextDecoder();
  const reader = response.body?.getReader();
  for (;;) {
    const chunk = await reader?.read();
    if (chunk === undefined || chunk.done) break;
    parser.feed(decoder.decode(chunk.value, { stream: true }));
  }
  return last;
}

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
  return (await response.json()) as Record<string, unknown>;
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'golem-queue-workers-'));
  const prefix = `golem-example-${randomUUID().slice(0, 8)}`;
  const children: ChildProcess[] = [];
  try {
    const started = await Promise.all([
      start('server.ts', dir, prefix),
      start('worker.ts', dir, prefix),
      start('worker.ts', dir, prefix),
    ]);
    children.push(...started.map(([child]) => child));
    const base = `http://127.0.0.1:${String(started[0][1].port)}`;
    log('an HTTP process and two worker processes are up');

    const { runId } = await post(`${base}/runs`, {
      prompt: 'Refund order A-17, please.',
      customer: 'Ada',
    });
    log('POST /runs → 202');
    log('GET /runs/:id/events');
    const last = await stream(base, String(runId), log);

    await post(`${base}/runs/${String(runId)}/decision`, {
      approvals: { 'refund-1': { approved: true } },
    });
    log('POST /runs/:id/decision (approved) → 202');
    log('GET /runs/:id/events (Last-Event-ID: the pause)');
    await stream(base, String(runId), log, last);

    const status = (await (await fetch(`${base}/runs/${String(runId)}`)).json()) as Record<
      string,
      unknown
    >;
    log(`GET /runs/:id → ${String(status.state)}: ${JSON.stringify(status.output)}`);
    const ledger = join(dir, 'ledger.txt');
    log(
      `refunds made: ${existsSync(ledger) ? readFileSync(ledger, 'utf8').trim().split('\n').length : 0}`,
    );
  } finally {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) {
              resolve();
              return;
            }
            child.once('exit', () => {
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    // The example's keys go with it (a real deployment keeps its prefix for good).
    const redis = new Redis(REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
