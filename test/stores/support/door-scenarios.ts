/**
 * The door matrix's scripted scenarios (issue 27), shared by every door's suite: the in-process
 * doors (test/stores/door-matrix.test.ts), the queue worker (test/services/queue) and the NestJS
 * helpers (test/nestjs). The model's first turn calls `calls` (one parallel batch), its second
 * answers "done"; a person resolves a pause with `decisions`. Each scenario says what every door
 * must give: the pause, the final transcript, the tools' effects and the counters.
 */
import { Agent, deferExternal, defineTool } from 'golem';
import type {
  Approval,
  Delta,
  Middleware,
  PendingToolCalls,
  Result,
  RunObserver,
  RunStore,
  Tool,
} from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import type { ScriptedToolCall } from 'golem/testing';
import { transcript } from './scenario';

/** How a person resolves a scenario's pause. */
export interface Decisions {
  approvals?: Record<string, Approval>;
  external?: Record<string, string>;
}

/** Pending calls as `[callId, reason]` pairs, by group. */
export interface PendingPairs {
  approvals: [string, string][];
  external: [string, string][];
}

export interface Scenario {
  readonly name: string;
  readonly calls: readonly ScriptedToolCall[];
  /** How its pause is resolved; `undefined`: it never pauses. */
  readonly decisions?: Decisions;
  /** The pause: its pending calls and its transcript. */
  readonly pause?: { pending: PendingPairs; transcript: string[] };
  readonly final: string[];
  /** The tool effects of an uninterrupted run (`+`: approved, `?`: deferred), sorted. */
  readonly effects: string[];
  /** Tool executions counted (`toolCalls`) before the pause, and after it. */
  readonly executions: readonly number[];
}

/** The usage of the model's two turns. */
export const CALLS_USAGE = { inputTokens: 5, outputTokens: 1 };
export const DONE_USAGE = { inputTokens: 10, outputTokens: 2 };

export const DENIED =
  'Your tool call was denied: too costly. Do not call it again; continue without its result.';

export const TOOLS_ONLY: Scenario = {
  name: 'tools only',
  calls: [
    { id: 'a1', name: 'step', args: { name: 'A' } },
    { id: 'a2', name: 'step', args: { name: 'B' } },
  ],
  final: ['user: go', 'assistant[a1,a2]', 'tool(a1): did A', 'tool(a2): did B', 'assistant: done'],
  effects: ['a1', 'a2'],
  executions: [2],
};

export const APPROVED: Scenario = {
  name: 'an approval granted',
  calls: [{ id: 'p1', name: 'pay', args: { what: 'rent' } }],
  decisions: { approvals: { p1: { approved: true } } },
  pause: {
    pending: { approvals: [['p1', '']], external: [] },
    transcript: ['user: go', 'assistant[p1]'],
  },
  final: ['user: go', 'assistant[p1]', 'tool(p1): paid rent', 'assistant: done'],
  effects: ['p1+'],
  executions: [0, 1],
};

export const DENIED_SCENARIO: Scenario = {
  name: 'an approval denied',
  calls: [{ id: 'p1', name: 'pay', args: { what: 'rent' } }],
  decisions: { approvals: { p1: { approved: false, reason: 'too costly' } } },
  pause: APPROVED.pause,
  final: ['user: go', 'assistant[p1]', `tool(p1): ${DENIED}`, 'assistant: done'],
  effects: [],
  executions: [0, 0],
};

export const EXTERNAL: Scenario = {
  name: 'an external result',
  calls: [{ id: 'x1', name: 'ask', args: { q: 'weather' } }],
  decisions: { external: { x1: 'sunny' } },
  pause: {
    pending: { approvals: [], external: [['x1', 'by hand']] },
    transcript: ['user: go', 'assistant[x1]'],
  },
  final: ['user: go', 'assistant[x1]', 'tool(x1): sunny', 'assistant: done'],
  effects: ['x1?'],
  executions: [0, 0], // a deferral is not counted
};

export const MIX: Scenario = {
  name: 'a mix in one batch',
  calls: [
    { id: 'a1', name: 'step', args: { name: 'A' } },
    { id: 'p1', name: 'pay', args: { what: 'rent' } },
    { id: 'p2', name: 'pay', args: { what: 'a yacht' } },
    { id: 'x1', name: 'ask', args: { q: 'weather' } },
  ],
  decisions: {
    approvals: { p1: { approved: true }, p2: { approved: false, reason: 'too costly' } },
    external: { x1: 'sunny' },
  },
  pause: {
    pending: {
      approvals: [
        ['p1', ''],
        ['p2', ''],
      ],
      external: [['x1', 'by hand']],
    },
    transcript: ['user: go', 'assistant[a1,p1,p2,x1]', 'tool(a1): did A'],
  },
  final: [
    'user: go',
    'assistant[a1,p1,p2,x1]',
    'tool(a1): did A',
    'tool(p1): paid rent',
    `tool(p2): ${DENIED}`,
    'tool(x1): sunny',
    'assistant: done',
  ],
  effects: ['a1', 'p1+', 'x1?'],
  executions: [1, 1],
};

export const SCENARIOS: Scenario[] = [TOOLS_ONLY, APPROVED, DENIED_SCENARIO, EXTERNAL, MIX];

export function sum(a: typeof CALLS_USAGE, b: typeof CALLS_USAGE): typeof CALLS_USAGE {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
}

/** The model requests an uninterrupted run makes: the transcript before each assistant turn. */
export function expectedRequests(final: readonly string[]): string[][] {
  return final.flatMap((line, i) => (line.startsWith('assistant') ? [final.slice(0, i)] : []));
}

export function pendingPairs(pending: PendingToolCalls | undefined): PendingPairs | undefined {
  if (pending === undefined) return undefined;
  return {
    approvals: pending.approvals.map((c) => [c.callId, c.reason]),
    external: pending.external.map((c) => [c.callId, c.reason]),
  };
}

// ---------------------------------------------------------------------------------------------
// The scenario's tools and model, and what they tell the process they run in.

/** The process a scenario's tools and model run in: its operations, tool effects, model requests. */
export interface ScenarioProcess {
  /** The process reaches operation `op` (`model <turn>`, `tool <callId>`): goes on, or never returns. */
  reach(op: string): Promise<void>;
  /** A tool's side effect happened: `<callId>`, `+` when approved, `?` for a deferral. */
  effect(effect: string): void;
  /** The model was asked, on this transcript. */
  asked(request: string[]): void;
}

/** A process that never dies, recording what happened. */
export class Recorder implements ScenarioProcess {
  readonly ops: string[] = [];
  readonly effects: string[] = [];
  readonly requests: string[][] = [];

  reach(op: string): Promise<void> {
    this.ops.push(op);
    return Promise.resolve();
  }

  effect(effect: string): void {
    this.effects.push(effect);
  }

  asked(request: string[]): void {
    this.requests.push(request);
  }
}

/** The scenarios' tools in process `proc`: `step` (plain), `pay` (needs approval), `ask` (defers). */
export function scenarioTools(proc: ScenarioProcess): Tool[] {
  const step = defineTool({
    name: 'step',
    description: 'Do one step.',
    schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    execute: async (args, ctx) => {
      await proc.reach(`tool ${ctx.callId}`);
      proc.effect(`${ctx.callId}${ctx.approved ? '+' : ''}`);
      return `did ${(args as { name: string }).name}`;
    },
  });
  const pay = defineTool({
    name: 'pay',
    description: 'Pay for something.',
    schema: { type: 'object', properties: { what: { type: 'string' } }, required: ['what'] },
    approval: true,
    execute: async (args, ctx) => {
      await proc.reach(`tool ${ctx.callId}`);
      proc.effect(`${ctx.callId}${ctx.approved ? '+' : ''}`);
      return `paid ${(args as { what: string }).what}`;
    },
  });
  const ask = defineTool({
    name: 'ask',
    description: 'Ask a person.',
    schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    execute: async (_args, ctx) => {
      await proc.reach(`tool ${ctx.callId}`);
      proc.effect(`${ctx.callId}?`);
      throw deferExternal('by hand');
    },
  });
  return [step, pay, ask];
}

/** The scenario's model in process `proc`: streams "do", "ne" on its second turn. */
export function scenarioModel(scenario: Scenario, proc: ScenarioProcess): StreamFunctionModel {
  // Stateless: the turn is the number of assistant turns in the request.
  return new StreamFunctionModel(async (request, emit) => {
    const turn = request.messages.filter((m) => m.role === 'assistant').length;
    await proc.reach(`model ${turn}`);
    proc.asked(transcript(request.messages));
    if (turn === 0) return toolCallResponse(scenario.calls, CALLS_USAGE);
    await emit({ content: 'do' });
    await emit({ content: 'ne' });
    return textResponse('done', DONE_USAGE);
  });
}

/** The agent options every door's scenario agent has: its calls run in parallel, and may pause. */
export const SCENARIO_AGENT = { parallelToolCalls: true, deferredTools: true } as const;

export type ScenarioAgent = Agent<unknown, string, true>;

/** The scenario's agent in process `proc`, on `store` if any. */
export function scenarioAgent(
  scenario: Scenario,
  proc: ScenarioProcess,
  options: {
    name?: string;
    store?: RunStore;
    onEvent?: RunObserver;
    middleware?: readonly Middleware[];
  } = {},
): ScenarioAgent {
  return new Agent<unknown, string, true>({
    model: scenarioModel(scenario, proc),
    tools: scenarioTools(proc),
    ...options,
    ...SCENARIO_AGENT,
  });
}

/** A run event (or the feed's JSON form of one) as a line: kind, turn, call and resolution. */
export function eventLabel(event: {
  kind: string;
  turn?: number;
  callId?: string;
  resolution?: string;
}): string {
  return [
    event.kind,
    event.turn === undefined ? undefined : `t${event.turn}`,
    event.callId,
    event.resolution,
  ]
    .filter((part) => part !== undefined)
    .join(' ');
}

// ---------------------------------------------------------------------------------------------
// The run events every door's run of a scenario emits, by docs/guides/run-events.md
// ("Ordering"), as `eventLabel`s, segment by segment (a pause ends a segment): per turn
// `model_start`, `model_end`, then the batch — a concurrent group, so every `tool_start`, then
// every end, each in emission order; a call that waits (an approval, a deferral) ends with
// `deferred` instead of `tool_end`. On resume every resolution comes before the first
// `model_start`, in emission order: an approved call runs (`tool_start`/`tool_end`, turn 0), a
// denied call or an external result is `tool_resolved`. A streamed turn's fragments come between
// its `model_start` and `model_end`.

const EVENTS = new Map<Scenario, string[][]>([
  [
    TOOLS_ONLY,
    [
      [
        'model_start t0',
        'model_end t0',
        'tool_start t0 a1',
        'tool_start t0 a2',
        'tool_end t0 a1',
        'tool_end t0 a2',
        'model_start t1',
        'model_end t1',
      ],
    ],
  ],
  [
    APPROVED,
    [
      ['model_start t0', 'model_end t0', 'tool_start t0 p1', 'deferred t0 p1'],
      ['tool_start t0 p1', 'tool_end t0 p1', 'model_start t0', 'model_end t0'],
    ],
  ],
  [
    DENIED_SCENARIO,
    [
      ['model_start t0', 'model_end t0', 'tool_start t0 p1', 'deferred t0 p1'],
      ['tool_resolved t0 p1 denied', 'model_start t0', 'model_end t0'],
    ],
  ],
  [
    EXTERNAL,
    [
      ['model_start t0', 'model_end t0', 'tool_start t0 x1', 'deferred t0 x1'],
      ['tool_resolved t0 x1 external', 'model_start t0', 'model_end t0'],
    ],
  ],
  [
    MIX,
    [
      [
        'model_start t0',
        'model_end t0',
        'tool_start t0 a1',
        'tool_start t0 p1',
        'tool_start t0 p2',
        'tool_start t0 x1',
        'tool_end t0 a1',
        'deferred t0 p1',
        'deferred t0 p2',
        'deferred t0 x1',
      ],
      [
        'tool_start t0 p1',
        'tool_end t0 p1',
        'tool_resolved t0 p2 denied',
        'tool_resolved t0 x1 external',
        'model_start t0',
        'model_end t0',
      ],
    ],
  ],
]);

/** The streamed answer's fragments, as `delta` lines. */
export const ANSWER_DELTAS = ['delta {"content":"do"}', 'delta {"content":"ne"}'];

/**
 * The scenario's run events by the documented order, segment by segment; `streamed`: with the
 * answer's fragments (`delta <json>`) inside the last turn's `model_start`/`model_end`.
 */
export function documentedEvents(scenario: Scenario, streamed: boolean): string[][] {
  const segments = EVENTS.get(scenario);
  if (segments === undefined) throw new Error(`no documented events for "${scenario.name}"`);
  if (!streamed) return segments.map((s) => [...s]);
  return segments.map((s, i) =>
    i < segments.length - 1 ? [...s] : [...s.slice(0, -1), ...ANSWER_DELTAS, ...s.slice(-1)],
  );
}

/** The in-process run of a scenario: its results, and per segment its events and fragments. */
export interface ReferenceRun {
  /** Per segment: `eventLabel`s of its run events and `delta <json>` lines, as they came. */
  readonly segments: string[][];
  /** Per segment: the fragments the stream delivered. */
  readonly deltas: Delta[][];
  readonly paused?: Result<string>;
  readonly final: Result<string>;
}

/**
 * The scenario through the in-process doors on a memory store — `run` then `resume(runId)`, or
 * (`streamed`) `runStream` then `resumeStream(runId)` — observed: what every other door must match.
 */
export async function referenceRun(scenario: Scenario, streamed: boolean): Promise<ReferenceRun> {
  const agent = scenarioAgent(scenario, new Recorder(), { store: memoryStore() });
  const segments: string[][] = [];
  const deltas: Delta[][] = [];
  const segment = async (
    plain: (observer: RunObserver) => Promise<Result<string>>,
    stream: (
      observer: RunObserver,
    ) => AsyncIterable<Delta> & { readonly result: Promise<Result<string>> },
  ): Promise<Result<string>> => {
    const log: string[] = [];
    const fragments: Delta[] = [];
    segments.push(log);
    deltas.push(fragments);
    const observer: RunObserver = (event) => log.push(eventLabel(event));
    if (!streamed) return plain(observer);
    const run = stream(observer);
    for await (const delta of run) {
      fragments.push(delta);
      log.push(`delta ${JSON.stringify(delta)}`);
    }
    return run.result;
  };
  const first = await segment(
    (observer) => agent.run('go', { observer }),
    (observer) => agent.runStream('go', { observer }),
  );
  if (scenario.decisions === undefined) return { segments, deltas, final: first };
  const runId = first.runId ?? '';
  const decisions = scenario.decisions;
  const final = await segment(
    (observer) => agent.resume(runId, decisions, { observer }),
    (observer) => agent.resumeStream(runId, decisions, { observer }),
  );
  return { segments, deltas, paused: first, final };
}
