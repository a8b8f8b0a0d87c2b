/**
 * The door matrix (issue 27): every in-process door into a run — `run`, `runStream`, `resume`
 * (history or stored run id), `resumeStream`, `resumeRun` and the `golem/ui` chat route, in memory
 * or on a run store (memory, and a real SQLite file) — drives the same scripted scenarios, and
 * each gives the same transcript: returned, stored, and as the model was asked it. Then each
 * checkpoint boundary of two scenarios is a crash point: the "process" dies there (a model call,
 * a tool or a store write that never returns), a fresh one continues after the lease expired,
 * and the run ends as the uninterrupted one did — every call answered once, no completed call's
 * effect repeated. No sleeps: gates and a fake clock only.
 *
 * The scenarios are test/stores/support/door-scenarios.ts, shared with the doors that need more
 * than this process: the queue worker (test/services/queue/door-matrix.test.ts, on Redis) and
 * the NestJS helpers (test/nestjs/door-matrix.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UIMessage } from 'ai';
import { INTERRUPTED_CALL_REASON, loadConversation, loadRun } from 'golem';
import type { Approval, Message, PendingToolCalls, Result, RunStore, StoredRun } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { sqliteStore } from 'golem/stores/sqlite';
import { chatResponse } from 'golem/ui';
import type { ChatAgent } from 'golem/ui';
import { foldMessage, parseSseBytes } from '../ui/ai-client';
import {
  CALLS_USAGE,
  DONE_USAGE,
  expectedRequests,
  MIX,
  pendingPairs,
  scenarioAgent,
  SCENARIOS,
  sum,
  TOOLS_ONLY,
} from './support/door-scenarios';
import type { Decisions, Scenario, ScenarioAgent, ScenarioProcess } from './support/door-scenarios';
import { FakeClock, forever, gate, resultsPerCall, transcript } from './support/scenario';

// ---------------------------------------------------------------------------------------------
// A "process": its operations in order — model calls, tool bodies, store writes — and the
// effects of its tools. Given `dieAt`, it dies at that operation: it never returns, and nothing
// the process does afterwards returns either (as if it were killed there).

class Proc implements ScenarioProcess {
  readonly ops: string[] = [];
  readonly effects: string[] = [];
  readonly requests: string[][] = [];
  private dead = false;
  private readonly death = gate();

  constructor(private readonly dieAt = Number.POSITIVE_INFINITY) {}

  /** Resolves when the process died. */
  get died(): Promise<void> {
    return this.death.promise;
  }

  /** The process reaches operation `op`: goes on, or dies there. */
  async reach(op: string): Promise<void> {
    if (this.dead) return forever();
    this.ops.push(op);
    if (this.ops.length === this.dieAt) {
      this.dead = true;
      this.death.open();
      return forever();
    }
  }

  effect(effect: string): void {
    this.effects.push(effect);
  }

  asked(request: string[]): void {
    this.requests.push(request);
  }
}

/** A store write as an operation's label: the row's status, calls in flight, calls waiting. */
function writeLabel(kind: string, run: StoredRun): string {
  const inFlight =
    run.inFlight === null ? '' : ` in-flight ${(JSON.parse(run.inFlight) as string[]).join(',')}`;
  const waiting = run.pending === null ? '' : ' +pending';
  const messages = (JSON.parse(run.messages) as unknown[]).length;
  return `${kind} ${run.status} ${messages} messages${inFlight}${waiting}`;
}

/** `inner` as process `proc` sees it: every write is one of the process's operations. */
function processStore(inner: RunStore, proc: Proc): RunStore {
  const store: RunStore = {
    leaseMs: inner.leaseMs,
    now: () => inner.now(),
    migrate: () => inner.migrate(),
    close: () => Promise.resolve(),
    getRun: (id) => inner.getRun(id),
    getConversation: (id) => inner.getConversation(id),
    listRuns: (filter) => inner.listRuns(filter),
    replaceRun: async (run, expected, options) => {
      await proc.reach(writeLabel('write', run));
      return inner.replaceRun(run, expected, options);
    },
    transaction: async (body) => {
      await proc.reach('transaction');
      return inner.transaction(body);
    },
  };
  const insert = inner.insertRun?.bind(inner);
  if (insert !== undefined)
    store.insertRun = async (run, options) => {
      await proc.reach(writeLabel('insert', run));
      return insert(run, options);
    };
  return store;
}

type TestAgent = ScenarioAgent;

/** The scenario's agent in process `proc`, on `store` (its writes the process's) if any. */
function agentOf(scenario: Scenario, proc: Proc, store: RunStore | undefined): TestAgent {
  return scenarioAgent(scenario, proc, {
    store: store === undefined ? undefined : processStore(store, proc),
  });
}

// ---------------------------------------------------------------------------------------------
// Where runs are kept.

type StoreKind = 'none' | 'memory' | 'sqlite';

interface Place {
  readonly store: RunStore | undefined;
  readonly clock: FakeClock;
}

/** One SQLite file for the whole matrix (opening one per case costs more than the case). */
let sqlite: { store: RunStore; clock: FakeClock; dir: string } | undefined;
afterAll(async () => {
  if (sqlite === undefined) return;
  await sqlite.store.close();
  rmSync(sqlite.dir, { recursive: true, force: true });
});

/** Where a case keeps its runs: nowhere, a fresh memory store, or the SQLite file. */
function open(kind: StoreKind): Place {
  const clock = new FakeClock();
  if (kind === 'none') return { store: undefined, clock };
  if (kind === 'memory') return { store: memoryStore({ clock: clock.now }), clock };
  if (sqlite === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'golem-doors-'));
    const shared = new FakeClock();
    sqlite = {
      store: sqliteStore({ path: join(dir, 'runs.db'), clock: shared.now }),
      clock: shared,
      dir,
    };
  }
  return { store: sqlite.store, clock: sqlite.clock };
}

/** A run id (and conversation id) no other case uses. */
let cases = 0;
function freshIds(onConversation: boolean): { runId: string; conversation?: string } {
  cases++;
  return onConversation
    ? { runId: `r${cases}`, conversation: `c${cases}` }
    : { runId: `r${cases}` };
}

// ---------------------------------------------------------------------------------------------
// The doors. A flow starts the scenario through one door and resolves its pause through another;
// `atPause` runs between the two.

interface Outcome {
  paused?: Result<string>;
  final: Result<string>;
  /** The text the streaming doors delivered, segment by segment. */
  streamed: string[];
}

type AtPause = (paused: Result<string>) => Promise<void>;

/** A stream's deltas, read to the end, then its result. */
async function drain(
  stream: AsyncIterable<{ content?: string }> & { result: Promise<Result<string>> },
  streamed: string[],
): Promise<Result<string>> {
  let text = '';
  for await (const delta of stream) text += delta.content ?? '';
  streamed.push(text);
  return stream.result;
}

type Starter = (agent: TestAgent, streamed: string[]) => Promise<Result<string>>;
type Resumer = (
  agent: TestAgent,
  paused: Result<string>,
  decisions: Decisions,
  streamed: string[],
) => Promise<Result<string>>;

const STARTS: Record<string, Starter> = {
  run: (agent) => agent.run('go'),
  runStream: (agent, streamed) => drain(agent.runStream('go'), streamed),
};

/** A stored paused run resumes by its id; without a store, from its messages. */
const target = (agent: TestAgent, paused: Result<string>): readonly Message[] | string =>
  agent.store === undefined ? paused.messages : (paused.runId ?? '');

const RESUMES: Record<string, Resumer> = {
  resume: (agent, paused, decisions) => agent.resume(target(agent, paused), decisions),
  resumeStream: (agent, paused, decisions, streamed) =>
    drain(agent.resumeStream(target(agent, paused), decisions), streamed),
  // On an agent with a store: the paused messages resume in memory, the stored run stays paused.
  'resume(history)': (agent, paused, decisions) => agent.resume(paused.messages, decisions),
};

async function agentFlow(
  start: Starter,
  resume: Resumer,
  agent: TestAgent,
  scenario: Scenario,
  atPause: AtPause,
): Promise<Outcome> {
  const streamed: string[] = [];
  const first = await start(agent, streamed);
  if (scenario.decisions === undefined) return { final: first, streamed };
  await atPause(first);
  return {
    paused: first,
    final: await resume(agent, first, scenario.decisions, streamed),
    streamed,
  };
}

/** The agent as the chat route sees it, recording the result of every run the route starts. */
function recorded(agent: TestAgent): {
  chat: ChatAgent<unknown, string>;
  results: Promise<Result<string>>[];
} {
  const results: Promise<Result<string>>[] = [];
  const chat: ChatAgent<unknown, string> = {
    store: agent.store,
    name: agent.name,
    runStream: (prompt, options) => {
      const stream = agent.runStream(prompt, options);
      results.push(stream.result);
      return stream;
    },
    resumeStream: (history, decisions, options) => {
      const stream = agent.resumeStream(history, decisions, options);
      results.push(stream.result);
      return stream;
    },
  };
  return { chat, results };
}

/** The paused assistant message with a person's decisions, as the browser sends it back. */
function decided(message: UIMessage, decisions: Decisions): UIMessage {
  const copy = structuredClone(message);
  copy.parts = copy.parts.map((part) => {
    if (!('toolCallId' in part)) return part;
    const approval = decisions.approvals?.[part.toolCallId];
    if (approval !== undefined && part.state === 'approval-requested')
      return {
        ...part,
        state: 'approval-responded',
        approval: { id: part.approval.id, ...approval },
      };
    const text = decisions.external?.[part.toolCallId];
    if (text !== undefined)
      return { ...part, state: 'output-available', output: text } as UIMessage['parts'][number];
    return part;
  });
  return copy;
}

/** One request to the chat route (`chatResponse`), read by the `ai` package's client. */
async function chatTurn(
  chat: ChatAgent<unknown, string>,
  messages: UIMessage[],
  previous?: UIMessage,
): Promise<UIMessage> {
  const response = await chatResponse(chat, { messages });
  expect(response.status).toBe(200);
  const chunks = await parseSseBytes(response.body as ReadableStream<Uint8Array>);
  const { message, errors } = await foldMessage(chunks, previous);
  expect(errors).toEqual([]);
  if (message === undefined) throw new Error('the chat route answered no message');
  return message;
}

/** The `golem/ui` chat route: a user message starts the run, the decided message resumes it. */
async function chatFlow(agent: TestAgent, scenario: Scenario, atPause: AtPause): Promise<Outcome> {
  const { chat, results } = recorded(agent);
  const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }] };
  const assistant = await chatTurn(chat, [user]);
  const first = await (results[0] as Promise<Result<string>>);
  expect(assistant.metadata).toMatchObject(metadataOf(first));
  if (scenario.decisions === undefined) return { final: first, streamed: [] };
  await atPause(first);
  const resumed = await chatTurn(chat, [user, decided(assistant, scenario.decisions)], assistant);
  const final = await (results[1] as Promise<Result<string>>);
  expect(resumed.metadata).toMatchObject(metadataOf(final));
  return { paused: first, final, streamed: [] };
}

/** The message metadata the chat route sends for `result`: its run id, usage and pending calls. */
function metadataOf(result: Result<string>): Record<string, unknown> {
  const pending =
    result.pending === undefined
      ? null
      : {
          approvals: result.pending.approvals.map((c) => c.callId),
          external: result.pending.external.map((c) => c.callId),
        };
  return {
    usage: result.usage,
    pending,
    ...(result.runId !== undefined && { runId: result.runId }),
  };
}

type Flow = (agent: TestAgent, scenario: Scenario, atPause: AtPause) => Promise<Outcome>;

/** The flows through `kind`'s doors, by name. */
function flows(kind: StoreKind, pauses: boolean): [string, Flow][] {
  const out: [string, Flow][] = [];
  for (const [startName, start] of Object.entries(STARTS)) {
    if (!pauses) {
      out.push([
        startName,
        (agent, s, at) => agentFlow(start, RESUMES.resume as Resumer, agent, s, at),
      ]);
      continue;
    }
    for (const [resumeName, resume] of Object.entries(RESUMES)) {
      if (kind === 'none' && resumeName === 'resume(history)') continue; // `resume` is that here
      const by = kind === 'none' || resumeName === 'resume(history)' ? '' : '(runId)';
      out.push([
        `${startName} → ${resumeName}${by}`,
        (agent, s, at) => agentFlow(start, resume, agent, s, at),
      ]);
    }
  }
  out.push([pauses ? 'chat route → chat route' : 'chat route', chatFlow]);
  return out;
}

const KINDS: StoreKind[] = ['none', 'memory', 'sqlite'];

// ---------------------------------------------------------------------------------------------
// 1–5: every door gives the same transcripts.

const DOOR_CASES = SCENARIOS.flatMap((scenario) =>
  KINDS.flatMap((kind) =>
    flows(kind, scenario.decisions !== undefined).map(
      ([door, flow]) => [scenario.name, kind, door, scenario, flow] as const,
    ),
  ),
);

/** What every door's pause must be: returned, stored, and as `resumeRun` gives it back. */
async function checkPause(
  scenario: Scenario,
  agent: TestAgent,
  store: RunStore | undefined,
  paused: Result<string>,
): Promise<void> {
  expect(pendingPairs(paused.pending)).toEqual(scenario.pause?.pending);
  expect(transcript(paused.messages)).toEqual(scenario.pause?.transcript);
  if (store === undefined) {
    expect(paused.runId).toBeUndefined();
    return;
  }
  const record = await loadRun(store, paused.runId ?? '');
  expect(record.status).toBe('paused');
  expect(pendingPairs(record.pending)).toEqual(scenario.pause?.pending);
  expect(transcript(record.messages)).toEqual(scenario.pause?.transcript);
  // A paused run continued comes back as it is.
  const asIs = await agent.resumeRun(paused.runId ?? '');
  expect(pendingPairs(asIs.pending)).toEqual(scenario.pause?.pending);
  expect(transcript(asIs.messages)).toEqual(scenario.pause?.transcript);
}

describe('every door gives the same run', () => {
  test.each(DOOR_CASES)('%s — store %s — %s', async (_name, kind, door, scenario, flow) => {
    const { store } = open(kind);
    const proc = new Proc();
    const agent = agentOf(scenario, proc, store);
    const { paused, final } = await flow(agent, scenario, (p) =>
      checkPause(scenario, agent, store, p),
    );
    expect(paused === undefined).toBe(scenario.decisions === undefined);
    expect(final.pending).toBeUndefined();
    expect(final.output).toBe('done');
    expect(transcript(final.messages)).toEqual(scenario.final);
    expect(Object.values(resultsPerCall(final.messages)).every((n) => n === 1)).toBe(true);
    // The model was asked exactly the uninterrupted run's turns, each on the same history.
    expect(proc.requests).toEqual(expectedRequests(scenario.final));
    // Denied calls and calls answered from outside never executed; approved ones once, approved.
    expect([...proc.effects].sort()).toEqual(scenario.effects);
    // The counters: a paused result counts its segment; a stored run's final result counts
    // every segment, a resume in memory (from messages) only its own.
    const [before = 0, after = 0] = scenario.executions;
    const whole = [2, before + after, sum(CALLS_USAGE, DONE_USAGE)];
    const counters = (r: Result<string>) => [r.requests, r.toolCalls, r.usage];
    if (paused === undefined) expect(counters(final)).toEqual(whole);
    else {
      expect(counters(paused)).toEqual([1, before, CALLS_USAGE]);
      expect(counters(final)).toEqual(final.runId === undefined ? [1, after, DONE_USAGE] : whole);
    }
    if (store === undefined) return;
    if (final.runId === undefined) {
      // resume(history) beside a store: the stored run still waits.
      expect(door).toContain('resume(history)');
      const record = await loadRun(store, paused?.runId ?? '');
      expect(record.status).toBe('paused');
      expect(transcript(record.messages)).toEqual(scenario.pause?.transcript);
      return;
    }
    if (paused !== undefined) expect(final.runId).toBe(paused.runId);
    const record = await loadRun(store, final.runId);
    expect(record.status).toBe('completed');
    expect(transcript(record.messages)).toEqual(scenario.final);
  });
});

// ---------------------------------------------------------------------------------------------
// 6: streaming gives what running gives, message for message.

describe('streaming doors give what the plain doors give', () => {
  const cases = SCENARIOS.flatMap((s) => KINDS.map((kind) => [s.name, kind, s] as const));
  test.each(cases)('%s — store %s', async (_name, kind, scenario) => {
    const outcomes: Outcome[] = [];
    for (const [start, resume] of [
      [STARTS.run, RESUMES.resume],
      [STARTS.runStream, RESUMES.resumeStream],
    ] as const) {
      const agent = agentOf(scenario, new Proc(), open(kind).store);
      const flow = agentFlow(start as Starter, resume as Resumer, agent, scenario, () =>
        Promise.resolve(),
      );
      outcomes.push(await flow);
    }
    const [plain, streaming] = outcomes as [Outcome, Outcome];
    expect(streaming.paused?.messages).toEqual(plain.paused?.messages);
    expect(streaming.paused?.pending).toEqual(plain.paused?.pending);
    expect(streaming.final.messages).toEqual(plain.final.messages);
    expect(streaming.final.output).toBe(plain.final.output);
    expect(streaming.final.usage).toEqual(plain.final.usage);
    // The streams delivered the answer's text: nothing while pausing, "done" in the last segment.
    expect(streaming.streamed).toEqual(scenario.decisions === undefined ? ['done'] : ['', 'done']);
  });
});

// ---------------------------------------------------------------------------------------------
// 7: a crash at every boundary.

/** Where the crash cases keep their runs, and whether the run is on a conversation. */
const CRASH_PLACES: [string, StoreKind, boolean][] = [
  ['memory', 'memory', false],
  ['sqlite', 'sqlite', false],
  ['sqlite, on a conversation', 'sqlite', true],
];

/**
 * The operations of the uninterrupted stored flows, in order: each is a crash point. (A run on a
 * conversation starts and completes in a transaction instead.)
 */
const OPS: [Scenario, string[]][] = [
  [
    TOOLS_ONLY,
    [
      'insert running 1 messages',
      'model 0',
      'write running 2 messages in-flight a1,a2',
      'tool a1',
      'tool a2',
      'write running 3 messages in-flight a2',
      'write running 4 messages',
      'write running 4 messages',
      'model 1',
      'write running 5 messages',
      'write completed 5 messages',
    ],
  ],
  [
    MIX,
    [
      'insert running 1 messages',
      'model 0',
      'write running 2 messages in-flight a1,p1,p2,x1',
      'tool a1',
      'tool x1',
      'write running 3 messages in-flight p1,p2,x1',
      'write running 3 messages +pending',
      'write paused 3 messages +pending',
      'transaction',
      'write running 5 messages in-flight p1 +pending',
      'tool p1',
      'write running 6 messages',
      'model 1',
      'write running 7 messages',
      'write completed 7 messages',
    ],
  ],
];

function opsOf(ops: readonly string[], onConversation: boolean): string[] {
  if (!onConversation) return [...ops];
  const inTransaction = (op: string) => op.startsWith('insert') || op.startsWith('write completed');
  return ops.map((op) => (inTransaction(op) ? 'transaction' : op));
}

interface Ids {
  runId: string;
  conversation?: string;
}

/** The flow the dying process runs: start the run, resume its pause by id. */
async function storedFlow(agent: TestAgent, scenario: Scenario, ids: Ids): Promise<Result<string>> {
  const first = await agent.run('go', ids);
  if (first.pending === undefined) return first;
  return agent.resume(ids.runId, scenario.decisions ?? {});
}

/**
 * A person's decisions on `pending`: the scenario's own; an interrupted call without one (a plain
 * tool) is approved to run again.
 */
function decide(scenario: Scenario, pending: PendingToolCalls): Decisions {
  const approvals: Record<string, Approval> = {};
  const external: Record<string, string> = {};
  for (const call of pending.approvals) {
    const text = scenario.decisions?.external?.[call.callId];
    if (text !== undefined)
      external[call.callId] = text; // an interrupted call of `ask`
    else {
      const own = scenario.decisions?.approvals?.[call.callId];
      if (own === undefined && call.reason !== INTERRUPTED_CALL_REASON)
        throw new Error(`no decision for ${call.callId} (${call.reason})`);
      approvals[call.callId] = own ?? { approved: true };
    }
  }
  for (const call of pending.external) {
    const text = scenario.decisions?.external?.[call.callId];
    if (text === undefined) throw new Error(`no result for ${call.callId}`);
    external[call.callId] = text;
  }
  return { approvals, external };
}

/**
 * The next process: continues the run with `resumeRun` (or starts it again when its start never
 * landed), then resolves every pause with a person's decisions.
 */
async function recover(
  agent: TestAgent,
  scenario: Scenario,
  started: boolean,
  ids: Ids,
): Promise<{ final: Result<string>; pauses: PendingToolCalls[]; reRun: Set<string> }> {
  let result = started ? await agent.resumeRun(ids.runId) : await agent.run('go', ids);
  const pauses: PendingToolCalls[] = [];
  const reRun = new Set<string>();
  while (result.pending !== undefined) {
    if (pauses.length === 3) throw new Error('still paused after three decisions');
    pauses.push(result.pending);
    const decisions = decide(scenario, result.pending);
    for (const call of result.pending.approvals)
      if (call.reason === INTERRUPTED_CALL_REASON && decisions.approvals?.[call.callId]?.approved)
        reRun.add(call.callId);
    result = await agent.resume(ids.runId, decisions);
  }
  return { final: result, pauses, reRun };
}

const callId = (effect: string): string => effect.replace(/[+?]$/, '');

const BOUNDARY_CASES = OPS.flatMap(([scenario, ops]) =>
  CRASH_PLACES.map(([place, kind, onConversation]) => {
    const expected = opsOf(ops, onConversation);
    return [scenario.name, place, kind, onConversation, scenario, expected] as const;
  }),
);

const CRASH_CASES = CRASH_PLACES.flatMap(([place, kind, onConversation]) =>
  OPS.flatMap(([scenario, ops]) =>
    opsOf(ops, onConversation).map(
      (op, i) => [place, scenario.name, i + 1, op, kind, onConversation, scenario] as const,
    ),
  ),
);

describe('a crash at every boundary, continued by resumeRun in a fresh process', () => {
  test.each(BOUNDARY_CASES)(
    '%s — %s: the uninterrupted flow has exactly these boundaries',
    async (_name, _place, kind, onConversation, scenario, expected) => {
      const proc = new Proc();
      const agent = agentOf(scenario, proc, open(kind).store);
      const done = await storedFlow(agent, scenario, freshIds(onConversation));
      expect(transcript(done.messages)).toEqual(scenario.final);
      expect(proc.ops).toEqual(expected);
    },
  );

  test.each(CRASH_CASES)(
    '%s — %s — dies at operation %i (%s)',
    async (_place, _name, index, op, kind, onConversation, scenario) => {
      const place = open(kind);
      const store = place.store as RunStore;
      const ids = freshIds(onConversation);
      const dying = new Proc(index);
      const flow = storedFlow(agentOf(scenario, dying, store), scenario, ids);
      await Promise.race([
        dying.died,
        flow.then(() => {
          throw new Error(`the flow ended before operation ${index}`);
        }),
      ]);
      expect(dying.ops.at(-1)).toBe(op);
      const stored = (await store.getRun(ids.runId)) && (await loadRun(store, ids.runId));
      place.clock.advance(store.leaseMs + 1);

      const live = new Proc();
      const agent = agentOf(scenario, live, store);
      const { final, pauses, reRun } = await recover(agent, scenario, stored !== undefined, ids);

      // The run ends as the uninterrupted one did, returned and stored.
      expect(final.output).toBe('done');
      expect(transcript(final.messages)).toEqual(scenario.final);
      expect(Object.values(resultsPerCall(final.messages)).every((n) => n === 1)).toBe(true);
      const record = await loadRun(store, ids.runId);
      expect(record.status).toBe('completed');
      expect(transcript(record.messages)).toEqual(scenario.final);
      if (ids.conversation !== undefined) {
        const chat = await loadConversation(store, ids.conversation);
        expect(transcript(chat?.messages ?? [])).toEqual(scenario.final);
      }

      // The documented difference: calls in flight at the crash (outcome unknown) pause for a
      // decision; every other decision survives the crash as it was.
      const interrupted = pauses.flatMap((p) =>
        p.approvals.filter((c) => c.reason === INTERRUPTED_CALL_REASON).map((c) => c.callId),
      );
      expect(interrupted).toEqual(stored?.status === 'running' ? stored.inFlight : []);

      // No committed turn is asked again, and the model is asked on the uninterrupted history.
      const committed = stored?.messages.filter((m) => m.role === 'assistant').length ?? 0;
      for (const request of live.requests) {
        expect(expectedRequests(scenario.final)).toContainEqual(request);
        const turn = request.filter((line) => line.startsWith('assistant')).length;
        expect(turn).toBeGreaterThanOrEqual(committed);
      }

      // Effects: a call whose result was stored never runs again; the next process runs a call
      // at most once, and one the dead process ran only when a person approved it after the
      // crash; denied calls never run; approved ones run approved.
      const answered = new Set(
        (stored?.messages ?? []).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])),
      );
      const liveIds = live.effects.map(callId);
      const dyingIds = dying.effects.map(callId);
      expect(new Set(liveIds).size).toBe(liveIds.length);
      for (const id of liveIds) {
        expect(answered.has(id)).toBe(false);
        if (dyingIds.includes(id)) expect(reRun.has(id)).toBe(true);
      }
      const all = [...dying.effects, ...live.effects];
      const allowed = new Set(scenario.effects.map(callId));
      expect(all.filter((e) => !allowed.has(callId(e)))).toEqual([]);
      for (const effect of scenario.effects.filter((e) => !e.endsWith('?')))
        expect(all.map(callId)).toContain(callId(effect));
      expect(all.filter((e) => e.startsWith('p') && !e.endsWith('+'))).toEqual([]);
    },
  );
});
