/**
 * Decisions survive SIGKILL: real child processes on a SQLite file. A parallel batch (a1 ‖ a2) is
 * cut by a kill; `resumeRun` pauses it on both calls; a person approves a1 and denies a2 (or
 * answers a2 with an external result); the process resuming it is killed during a1's approved
 * re-run. The next `resumeRun` never executes a2, and keeps its denial or external result.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, INTERRUPTED_CALL_REASON, loadRun } from 'golem';
import type { DeferredResults } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import type { DecisionChildConfig } from './support/decision-child';
import { resultsPerCall, scenarioModel, stepTool, transcript } from './support/scenario';

jest.setTimeout(60_000); // two child processes per case, each loading the TypeScript sources

const CHILD = join(__dirname, 'support', 'decision-child.ts');
const ROOT = join(__dirname, '..', '..');
const HOUR = 3_600_000;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-decisions-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Starts a child and SIGKILLs it once it reports that it reached its kill point. */
async function killAtPoint(config: DecisionChildConfig, point: string): Promise<void> {
  const child = fork(CHILD, [], {
    cwd: ROOT,
    execArgv: ['-r', '@swc-node/register'],
    env: { ...process.env, GOLEM_DECISION: JSON.stringify(config) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const message = await new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code, signal) => {
      reject(new Error(`child exited (${String(code ?? signal)}) before reporting: ${stderr}`));
    });
  });
  child.kill('SIGKILL');
  await exited(child);
  if (message.at !== point)
    throw new Error(`child stopped at ${JSON.stringify(message)}, not at ${point}`);
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else
      child.once('exit', () => {
        resolve();
      });
  });
}

/** This process as the next one: an agent on the file `clockOffset` later, recording effects. */
function nextProcess(path: string, effects: string[], clockOffset: number) {
  const store = sqliteStore({ path, clock: () => Date.now() + clockOffset });
  const step = stepTool((id, _name, approved) => void effects.push(`${id}${approved ? '+' : ''}`));
  const agent = new Agent({
    model: scenarioModel(),
    tools: [step],
    store,
    parallelToolCalls: true,
    deferredTools: true,
  });
  return { agent, store };
}

function lines(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];
}

/** Kills the batch, pauses it on both calls, kills the resume with `results` during a1's re-run. */
async function killDuringApprovedRerun(results: DeferredResults) {
  const path = join(dir, 'runs.db');
  const effects = join(dir, 'effects.txt');
  await killAtPoint({ path, effects, mode: 'start', clockOffset: 0 }, 'batch');
  const inParent: string[] = [];
  const pausing = nextProcess(path, inParent, HOUR);
  const paused = await pausing.agent.resumeRun('d');
  await pausing.store.close();
  expect(paused.pending?.approvals.map((c) => [c.callId, c.reason])).toEqual([
    ['a1', INTERRUPTED_CALL_REASON],
    ['a2', INTERRUPTED_CALL_REASON],
  ]);
  await killAtPoint({ path, effects, mode: 'decide', results, clockOffset: HOUR }, 'rerun');
  const last = nextProcess(path, inParent, 3 * HOUR);
  return { ...last, effects: () => [...lines(effects), ...inParent] };
}

test('SIGKILL during an approved re-run: the denied call of its batch never executes', async () => {
  const { agent, store, effects } = await killDuringApprovedRerun({
    approvals: { a1: { approved: true }, a2: { approved: false, reason: 'too risky' } },
  });
  try {
    const again = await agent.resumeRun('d');
    expect(again.pending?.approvals.map((c) => [c.callId, c.reason])).toEqual([
      ['a1', INTERRUPTED_CALL_REASON],
    ]);
    expect(effects()).toEqual([]); // a2 did not run, with or without ctx.approved
    const done = await agent.resume('d', { approvals: { a1: { approved: true } } });
    expect(done.output).toBe('done');
    expect(effects()).toEqual(['a1+', 'c1']);
    expect(resultsPerCall(done.messages)).toEqual({ a1: 1, a2: 1, c1: 1 });
    expect(transcript(done.messages)).toContain(
      'tool(a2): Your tool call was denied: too risky. Do not call it again; continue without its result.',
    );
    expect((await loadRun(store, 'd')).status).toBe('completed');
  } finally {
    await store.close();
  }
});

test('SIGKILL during an approved re-run: an external result is kept and its call never executes', async () => {
  const { agent, store, effects } = await killDuringApprovedRerun({
    approvals: { a1: { approved: true } },
    external: { a2: 'B was done by hand' },
  });
  try {
    const again = await agent.resumeRun('d');
    expect(again.pending?.approvals.map((c) => c.callId)).toEqual(['a1']);
    expect(transcript((await loadRun(store, 'd')).messages)).toContain(
      'tool(a2): B was done by hand',
    );
    const done = await agent.resume('d', { approvals: { a1: { approved: true } } });
    expect(done.output).toBe('done');
    expect(effects()).toEqual(['a1+', 'c1']);
    expect(transcript(done.messages)).toEqual([
      'user: go',
      'assistant[a1,a2]',
      'tool(a1): did A',
      'tool(a2): B was done by hand',
      'assistant[c1]',
      'tool(c1): did C',
      'assistant: done',
    ]);
  } finally {
    await store.close();
  }
});
