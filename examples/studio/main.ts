/**
 * Golem Studio, embedded: the support agent's runs (one answered, one paused on a refund that
 * needs approval) in a SQLite file, the studio's server (`createStudio` from `golem/studio`) on
 * 127.0.0.1, and the studio's HTTP API used as the app uses it — list the runs, open the paused
 * one, approve its refund, watch it complete, replay the answered run with another tool result.
 * `golem studio examples/studio/agents.ts` serves the same agents and store with the web app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStore } from 'golem/stores/sqlite';
import { createStudio, type RunDetail, type RunPage, type StartedRun } from 'golem/studio';
import { refunds, supportAgent } from './support-agent';

type Log = (line: string) => void;

/**
 * Follows a run's live stream (`/api/runs/:id/stream`, server-sent events) until it reaches
 * `status`; resolves with that detail.
 */
async function until(base: string, token: string, id: string, status: string): Promise<RunDetail> {
  const response = await fetch(`${base}/api/runs/${id}/stream?token=${token}`);
  if (response.body === null) throw new Error('the stream has no body');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
      if (data === '') continue;
      const detail = JSON.parse(data) as RunDetail;
      if (detail.summary.status === status) {
        await reader.cancel();
        return detail;
      }
    }
  }
  throw new Error(`the stream of ${id} ended before ${status}`);
}

export async function main(log: Log = console.log): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'golem-studio-example-'));
  const store = sqliteStore({ path: join(dir, 'runs.db') });
  const support = supportAgent(store);
  const studio = createStudio({ store, agents: [support] });
  const http = createServer((req, res) => void studio.handle(req, res));
  try {
    await support.run('Where is my order A-1042?', { runId: 'run-answered', owner: 'ann' });
    await support.run('Please refund order A-1077.', { runId: 'run-paused', owner: 'bob' });

    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
    const call = async <T>(path: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${studio.token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${path}: HTTP ${String(response.status)}`);
      return (await response.json()) as T;
    };

    const unauthorized = await fetch(`${base}/api/runs`);
    log(`without the token: HTTP ${String(unauthorized.status)}`);

    const page = await call<RunPage>('/api/runs');
    for (const run of [...page.runs].sort((a, b) => a.id.localeCompare(b.id)))
      log(
        `run ${run.id}: ${run.status}, ${String(run.turns)} turn(s), ${String(run.pending)} pending`,
      );

    const paused = await call<RunDetail>('/api/runs/run-paused');
    for (const pending of paused.pending)
      log(`waiting: ${pending.toolName} ${pending.args} (${pending.kind})`);
    await call<StartedRun>('/api/runs/run-paused/decisions', {
      approvals: { 'refund-1': { approved: true } },
    });
    const done = await until(base, studio.token, 'run-paused', 'completed');
    log(`after approval: ${done.summary.status}; refunds made: ${refunds.join(', ')}`);

    const replay = await call<StartedRun>('/api/runs/run-answered/replay', {
      fromTurn: 1,
      toolResults: { 'lookup-1': 'order A-1042: lost in transit' },
    });
    const replayed = await until(base, studio.token, replay.runId, 'completed');
    const original = await call<RunDetail>('/api/runs/run-answered');
    log(`original answer: ${String(original.output)}`);
    log(`replayed answer: ${String(replayed.output)}`);
  } finally {
    await studio.close();
    http.closeAllConnections();
    http.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
