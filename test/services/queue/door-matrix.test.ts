/**
 * The door matrix through the queue (issue 27): every door scenario of
 * test/stores/support/door-scenarios.ts goes enqueue → worker → paused → decide → completed on a
 * real Redis and a shared SQLite file, and gives what the in-process doors give: the same pause
 * and final transcript — returned (`queue.result`) and stored (`loadRun`) —, the same counters,
 * each tool effect once, and a feed whose run events are the in-process run's observer events,
 * in the order docs/guides/run-events.md documents. Then a worker process is killed at a
 * checkpoint boundary (gated over IPC, never timed): another worker recovers the run, which ends
 * with the same transcript and every completed tool's effect once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INTERRUPTED_CALL_REASON, loadRun } from 'golem';
import type { Message } from 'golem';
import type { AgentFactory, AgentJobInfo, FeedEntry, RunOutcome } from 'golem/queue';
import {
  CALLS_USAGE,
  documentedEvents,
  DONE_USAGE,
  eventLabel,
  expectedRequests,
  MIX,
  pendingPairs,
  Recorder,
  referenceRun,
  scenarioAgent,
  SCENARIOS,
  sum,
  TOOLS_ONLY,
} from '../../stores/support/door-scenarios';
import type { Scenario } from '../../stores/support/door-scenarios';
import { resultsPerCall, transcript } from '../../stores/support/scenario';
import { REDIS_URL } from '../redis';
import type { DoorChildConfig, DoorLogLine, DoorWrite } from './door-child';
import type { Harness } from './harness';
import { FAST_STALLED, harness } from './harness';
import { DOOR_CHILD, WorkerProcess } from './processes';

jest.setTimeout(60_000);

async function collect(it: AsyncIterable<FeedEntry>): Promise<FeedEntry[]> {
  const out: FeedEntry[] = [];
  for await (const entry of it) out.push(entry);
  return out;
}

/** A feed entry as a line: a run event as its `eventLabel`, a fragment as `delta <json>`. */
function feedLine({ event }: FeedEntry): string {
  if (event.type === 'event') return eventLabel(event.event);
  if (event.type === 'delta') return `delta ${JSON.stringify(event.delta)}`;
  return event.type;
}

/**
 * Feed lines with consecutive content fragments joined as one (`delta {"content":"do"}`,
 * `delta {"content":"ne"}` → `delta {"content":"done"}`): the worker's publisher merges the text
 * fragments of one event-loop turn into one feed entry, so the feed carries the in-process run's
 * text in the same order, in as many entries as its turns took.
 */
function joinedText(lines: readonly string[]): string[] {
  const out: string[] = [];
  let text: string | undefined;
  const flush = (): void => {
    if (text !== undefined) out.push(`delta ${JSON.stringify({ content: text })}`);
    text = undefined;
  };
  for (const line of lines) {
    const delta = line.startsWith('delta ') ? (JSON.parse(line.slice(6)) as object) : undefined;
    const content = (delta as { content?: unknown } | undefined)?.content;
    if (delta !== undefined && typeof content === 'string' && Object.keys(delta).length === 1)
      text = (text ?? '') + content;
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}

/** The stored messages of a settled outcome. */
function messagesOf(outcome: RunOutcome): readonly Message[] {
  return outcome.record?.messages ?? [];
}

// ---------------------------------------------------------------------------------------------
// Every scenario through the queue door, streamed (the worker publishes the model's fragments)
// or not, on workers in this process.

describe('every scenario through the queue gives the in-process run', () => {
  let h: Harness;
  /** What each run's tools and model did, by run id (a run's segments share one). */
  const procs = new Map<string, Recorder>();
  const procOf = (runId: string): Recorder => {
    const proc = procs.get(runId) ?? new Recorder();
    procs.set(runId, proc);
    return proc;
  };

  beforeAll(async () => {
    h = await harness();
    const agents: Record<string, AgentFactory> = Object.fromEntries(
      SCENARIOS.map((scenario) => [
        scenario.name,
        (job: AgentJobInfo) => scenarioAgent(scenario, procOf(job.runId), { name: scenario.name }),
      ]),
    );
    await h.worker({ agents });
  });
  afterAll(async () => {
    await h.close();
  });

  const cases = SCENARIOS.flatMap((scenario) =>
    [true, false].map(
      (stream) => [scenario.name, stream ? 'streamed' : 'not streamed', scenario, stream] as const,
    ),
  );

  test.each(cases)('%s — %s', async (_name, _streamed, scenario, stream) => {
    const reference = await referenceRun(scenario, stream);
    const { runId } = await h.queue.enqueue(scenario.name, 'go', { stream });
    const [before = 0, after = 0] = scenario.executions;

    if (scenario.decisions !== undefined) {
      const paused = await h.queue.result(runId);
      expect(paused.status).toBe('paused');
      if (paused.status !== 'paused') return;
      // The pause: returned, stored, and as the in-process door paused, message for message.
      expect(pendingPairs(paused.pending)).toEqual(scenario.pause?.pending);
      expect(transcript(messagesOf(paused))).toEqual(scenario.pause?.transcript);
      expect(messagesOf(paused)).toEqual(reference.paused?.messages);
      expect(paused.pending).toEqual(reference.paused?.pending);
      const stored = await loadRun(h.store, runId);
      expect(stored.status).toBe('paused');
      expect(transcript(stored.messages)).toEqual(scenario.pause?.transcript);
      expect([stored.requests, stored.toolCalls, stored.usage]).toEqual([1, before, CALLS_USAGE]);
      await h.queue.decide(runId, scenario.decisions, { stream });
    }

    const final = await h.queue.result(runId);
    expect(final.status).toBe('completed');
    if (final.status !== 'completed') return;
    expect(final.output).toBe('done');
    expect(transcript(messagesOf(final))).toEqual(scenario.final);
    expect(messagesOf(final)).toEqual(reference.final.messages);
    expect(Object.values(resultsPerCall(messagesOf(final))).every((n) => n === 1)).toBe(true);
    const whole = [2, before + after, sum(CALLS_USAGE, DONE_USAGE)];
    const record = await loadRun(h.store, runId);
    expect(record.status).toBe('completed');
    expect(transcript(record.messages)).toEqual(scenario.final);
    expect([record.requests, record.toolCalls, record.usage]).toEqual(whole);
    expect([reference.final.requests, reference.final.toolCalls, reference.final.usage]).toEqual(
      whole,
    );

    // Each effect once (denied and external calls never ran), the model asked each turn once.
    const proc = procOf(runId);
    expect([...proc.effects].sort()).toEqual(scenario.effects);
    expect(proc.requests).toEqual(expectedRequests(scenario.final));

    // The feed: each segment queued, started, its run events and fragments exactly as the
    // in-process run observed them (the documented order; consecutive text fragments joined),
    // then how it settled.
    const entries = await collect(h.queue.events(runId, { until: 'finished' }));
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    const segments = reference.segments;
    expect(segments).toEqual(documentedEvents(scenario, stream));
    expect(joinedText(entries.map(feedLine))).toEqual(
      joinedText(
        segments.flatMap((events, i) => [
          'queued',
          'started',
          ...events,
          i < segments.length - 1 ? 'paused' : 'completed',
        ]),
      ),
    );
    const paused = entries.find((e) => e.event.type === 'paused')?.event;
    if (paused?.type === 'paused') expect(paused.pending).toEqual(reference.paused?.pending);
    const completed = entries.at(-1)?.event;
    expect(completed).toMatchObject({
      type: 'completed',
      output: 'done',
      requests: whole[0],
      toolCalls: whole[1],
      usage: whole[2],
    });
    expect(h.errors).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// A worker process killed at a checkpoint boundary.

/** The run's lines of the children's log. */
function logOf(file: string, runId: string): DoorLogLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as DoorLogLine)
    .filter((line) => line.runId === runId);
}

const isWrite =
  (runId: string, messages: number, inFlight: string[]) =>
  (m: Record<string, unknown>): boolean => {
    const wrote = m.wrote as DoorWrite | undefined;
    return (
      wrote?.runId === runId &&
      wrote.status === 'running' &&
      wrote.messages === messages &&
      JSON.stringify(wrote.inFlight) === JSON.stringify(inFlight)
    );
  };

interface CrashCase {
  scenario: Scenario;
  /** The operation the victim freezes at: a tool whose body never returns. */
  op: string;
  /** The checkpoint stored just before: the messages kept and the calls in flight. */
  checkpoint: { messages: number; inFlight: string[] };
  /** The recovered run's pause: the interrupted call, and the transcript kept. */
  interrupted: string;
  transcript: string[];
  /** The feed's entries other than run events and fragments, in order. */
  feed: string[];
}

const CRASHES: [string, CrashCase][] = [
  [
    'in the middle of a tool batch (a1 stored, a2 running)',
    {
      scenario: TOOLS_ONLY,
      op: 'tool a2',
      checkpoint: { messages: 3, inFlight: ['a2'] },
      interrupted: 'a2',
      transcript: ['user: go', 'assistant[a1,a2]', 'tool(a1): did A'],
      feed: ['queued', 'started', 'recovered', 'paused', 'queued', 'started', 'completed'],
    },
  ],
  [
    'running the approved call of a resume (p2 and x1 resolved, p1 running)',
    {
      scenario: MIX,
      op: 'tool p1',
      checkpoint: { messages: 5, inFlight: ['p1'] },
      interrupted: 'p1',
      transcript: MIX.final.filter((line) => !line.startsWith('tool(p1)')).slice(0, -1),
      feed: [
        'queued',
        'started',
        'paused',
        'queued',
        'started',
        'recovered',
        'paused',
        'queued',
        'started',
        'completed',
      ],
    },
  ],
];

describe('a worker process killed at a checkpoint boundary', () => {
  let h: Harness;
  const processes: WorkerProcess[] = [];
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => p.close()));
    await h.close();
  });

  test.each(CRASHES)('%s: another worker recovers it', async (_name, c) => {
    const { scenario } = c;
    h = await harness({ leaseMs: 1_000 });
    await h.store.migrate();
    const log = join(h.dir, 'log.jsonl');
    const base: DoorChildConfig = {
      redisUrl: REDIS_URL,
      prefix: h.prefix,
      dbPath: h.dbPath,
      log,
      leaseMs: 1_000,
      stalled: FAST_STALLED,
    };
    const ready = (m: Record<string, unknown>): boolean => typeof m.ready === 'string';
    const victim = new WorkerProcess({ ...base, hangAt: [c.op], reportWrites: true }, DOOR_CHILD);
    processes.push(victim);
    await victim.next(ready);

    const { runId } = await h.queue.enqueue(scenario.name, 'go');
    if (scenario.decisions !== undefined) {
      expect((await h.queue.result(runId)).status).toBe('paused');
      await h.queue.decide(runId, scenario.decisions);
    }
    // The victim stored the checkpoint, then froze in the tool: it dies there.
    await victim.next(isWrite(runId, c.checkpoint.messages, c.checkpoint.inFlight));
    expect(await victim.next((m) => m.at === runId)).toEqual({ at: runId, op: c.op });
    const survivor = new WorkerProcess(base, DOOR_CHILD);
    processes.push(survivor);
    await survivor.next(ready);
    await victim.kill();

    // The survivor continues from the checkpoint: the call in flight (its outcome unknown)
    // waits for a decision; everything before it is kept.
    const recovered = await h.queue.result(runId);
    expect(recovered.status).toBe('paused');
    if (recovered.status !== 'paused') return;
    expect(pendingPairs(recovered.pending)).toEqual({
      approvals: [[c.interrupted, INTERRUPTED_CALL_REASON]],
      external: [],
    });
    expect(transcript(messagesOf(recovered))).toEqual(c.transcript);

    await h.queue.decide(runId, { approvals: { [c.interrupted]: { approved: true } } });
    const final = await h.queue.result(runId);
    expect(final.status).toBe('completed');
    expect(transcript(messagesOf(final))).toEqual(scenario.final);
    expect(Object.values(resultsPerCall(messagesOf(final))).every((n) => n === 1)).toBe(true);
    const record = await loadRun(h.store, runId);
    expect(record.status).toBe('completed');
    expect(record.output).toBe('done');
    expect(transcript(record.messages)).toEqual(scenario.final);

    const types = (await collect(h.queue.events(runId, { until: 'finished' })))
      .map((e) => e.event.type)
      .filter((t) => t !== 'event' && t !== 'delta');
    expect(types).toEqual(c.feed);

    // Every completed tool's effect once across both processes (the interrupted call ran once,
    // approved, in the survivor); the model asked each turn once, on the uninterrupted history.
    const lines = logOf(log, runId);
    const effects = lines.flatMap((l) => ('effect' in l ? [l.effect] : []));
    const approvedAgain = (e: string): string => (e === c.interrupted ? `${e}+` : e);
    expect(effects.sort()).toEqual(scenario.effects.map(approvedAgain).sort());
    const asked = lines.flatMap((l) => ('asked' in l ? [l.asked] : []));
    expect(asked).toEqual(expectedRequests(scenario.final));
  });
});
