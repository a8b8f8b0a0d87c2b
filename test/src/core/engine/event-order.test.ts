/**
 * The event order contract (docs/guides/run-events.md, "Event order"; issue 27), checked once
 * against every in-process door. `orderViolation` is the contract as a small state machine: it
 * reads a run's events framed by `run_start` and `run_end` (which `RunEvent` has no kinds for —
 * the doors say it: the call starts, the promise settles, `finish`/`error`, the UI `start` and
 * `finish` chunks) and names the first event out of order. The same scripted scenarios then go
 * through `run`, `runStream` (whose `events` must be the projection of the same run events, in the
 * same order), `resume` (in memory and by stored run id), `resumeStream`, `resumeRun` after a
 * simulated crash, and the `golem/ui` chat route (its chunks mapped back to the events they come
 * from). The queue feed and the Nest SSE route are checked elsewhere (test/services, test/nestjs).
 * No sleeps: gates and a fake clock only.
 */
import type { UIMessage, UIMessageChunk } from 'ai';
import {
  Agent,
  deferExternal,
  defineTool,
  ModelHTTPError,
  ModelRetry,
  verdict,
  type Approval,
  type Guardrails,
  type Message,
  type OutputDecoder,
  type Result,
  type RunEvent,
  type RunStore,
  type RunStreamEvent,
  type StoredRun,
} from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import type { ScriptedToolCall } from 'golem/testing';
import { chatResponse, type ChatAgent } from 'golem/ui';
import { foldMessage, parseSseBytes } from '../../../ui/ai-client';
import { FakeClock, forever, gate } from '../../../stores/support/scenario';

// ---------------------------------------------------------------------------------------------
// The contract.

/** How a door frames a run: no `RunEvent` kind says that a run started or ended. */
type Mark = { kind: 'run_start' } | { kind: 'run_end'; status: 'completed' | 'paused' | 'failed' };

/** A run's events as one door delivered them, framed. */
type Item = RunEvent | Mark;

/** How the run was entered: a new prompt, a paused run's decisions, a stored run continued. */
type Entry = 'run' | 'resume' | 'continue';

/** One line per item: kind, turn.attempt or turn and call id, and what tells items apart. */
function label(item: Item): string {
  switch (item.kind) {
    case 'run_start':
      return 'run_start';
    case 'run_end':
      return `run_end ${item.status}`;
    case 'model_start':
      return `model_start ${item.turn}.${item.attempt}`;
    case 'model_end':
      return `model_end ${item.turn}.${item.attempt} ${item.message === undefined ? 'failed' : 'ok'}`;
    case 'fallback':
      return `fallback ${item.turn}.${item.attempt}`;
    case 'tool_start':
    case 'deferred':
      return `${item.kind} ${item.turn} ${item.callId}`;
    case 'tool_end':
      return `tool_end ${item.turn} ${item.callId} ${item.result === undefined ? 'failed' : 'ok'}`;
    case 'tool_resolved':
      return `tool_resolved ${item.turn} ${item.callId} ${item.resolution}`;
    case 'tool_progress':
    case 'tool_log':
      return `${item.kind} ${item.turn} ${item.callId}`;
    case 'output_rejected':
      return `output_rejected ${item.attempt}`;
    case 'guardrail': {
      const { phase, name, outcome } = item.guardrail;
      const call = item.callId === undefined ? '' : ` ${item.turn} ${item.callId}`;
      return `guardrail ${phase}${call} ${name} ${outcome}`;
    }
    case 'compaction':
      return `compaction ${item.turn} ${item.compaction.policy}`;
    case 'memory_failed':
      return 'memory_failed';
    case 'handoff':
      return `handoff ${item.turn} ${item.from}>${item.to}`;
  }
}

/** The calls of a tool group: its starts came together; its ends follow in the same order. */
interface Group {
  readonly turn: number;
  readonly calls: string[];
  /** How many of `calls` have ended (`tool_end` or `deferred`). */
  ended: number;
  /** Whether a call of the group reported anything (progress, log, a tool guardrail). */
  inner: boolean;
}

type Phase =
  | 'before' // nothing yet: `run_start` comes first
  | 'opening' // before the first model_start: resolutions, a continued batch, input checks
  | 'attempt' // between a model_start and its model_end
  | 'retrying' // after a failed model_end: the next attempt, or the run's end
  | 'answered' // after a successful model_end: the batch, or the decode
  | 'batch' // in the tool batch of the answered turn
  | 'decode' // output guardrails ran on the answer
  | 'rejected' // after output_rejected: a new loop execution, at turn 0
  | 'ended';

/**
 * The first item of `items` out of the documented order, described; `undefined` when the whole
 * sequence keeps it. `streamed`: every turn is single-attempt. `cut`: the process died, the
 * sequence may stop anywhere (it has no `run_end`).
 */
function orderViolation(
  items: readonly Item[],
  entry: Entry,
  options: { streamed?: boolean; cut?: boolean } = {},
): string | undefined {
  let phase: Phase = 'before';
  let turn = 0;
  let attempt = 0;
  let round = 0;
  let modelStarted = false;
  let modelEnded = false;
  let inputChecked = false;
  /** Tool events came before the first model_start (resolutions, a continued batch). */
  let openingTools = false;
  let group: Group | undefined;
  /** The answered turn's calls, in emission order, and how many of them started. */
  let calls: string[] = [];
  let started = 0;
  /** A call of the current batch deferred: the run pauses after it. */
  let deferred = false;

  for (const [index, item] of items.entries()) {
    const at = `#${index} ${label(item)}`;
    if (phase === 'before') {
      if (item.kind !== 'run_start') return `${at}: run_start comes first`;
      phase = 'opening';
      continue;
    }
    if (phase === 'ended') return `${at}: nothing follows run_end`;
    const open = group !== undefined && group.ended < group.calls.length;
    switch (item.kind) {
      case 'run_start':
        return `${at}: run_start comes once, first`;
      case 'tool_resolved':
        if (phase !== 'opening' || entry !== 'resume')
          return `${at}: tool_resolved only on resume, before the first model_start`;
        if (open || inputChecked) return `${at}: resolutions come one by one, before input checks`;
        if (item.turn !== 0) return `${at}: resolutions have turn 0`;
        openingTools = true;
        break;
      case 'tool_start': {
        if (phase === 'opening') {
          if (entry === 'run') return `${at}: a new run calls the model first`;
          if (inputChecked) return `${at}: resolutions come before input checks`;
          if (item.turn !== 0) return `${at}: calls before the first model turn have turn 0`;
          if (entry === 'resume' && open) return `${at}: an approved re-run is a group of its own`;
          openingTools = true;
        } else {
          if (phase === 'answered') {
            phase = 'batch';
            group = undefined;
          } else if (phase !== 'batch') return `${at}: tool_start outside a batch`;
          if (item.turn !== turn) return `${at}: a batch has the turn of the model call that asked`;
          if (calls[started] !== item.callId)
            return `${at}: calls start in the order the model emitted them (${calls.join(',')})`;
          started++;
        }
        const current = open ? group : undefined;
        if (current === undefined)
          group = { turn: item.turn, calls: [item.callId], ended: 0, inner: false };
        else if (current.ended > 0 || current.inner)
          return `${at}: a group's tool_starts come together, before its calls' events and ends`;
        else current.calls.push(item.callId);
        break;
      }
      case 'tool_progress':
      case 'tool_log':
      case 'guardrail': {
        if (item.kind === 'guardrail' && item.callId === undefined) {
          const phaseName = item.guardrail.phase;
          if (phaseName === 'input') {
            const first =
              round === 0 &&
              !modelEnded &&
              ((phase === 'opening' && !open && !(entry === 'continue' && openingTools)) ||
                (phase === 'attempt' && turn === 0 && attempt === 1));
            if (!first) return `${at}: input checks come before the first model_end`;
            inputChecked = true;
          } else if (phaseName === 'output') {
            const decodable =
              phase === 'answered' ||
              phase === 'decode' ||
              (phase === 'opening' && entry === 'continue' && !openingTools && !inputChecked);
            if (!decodable) return `${at}: output checks come after the final model_end`;
            phase = 'decode';
          } else return `${at}: a tool phase without a call`;
          break;
        }
        const toolPhase = item.kind !== 'guardrail' || item.guardrail.phase.startsWith('tool_');
        if (!toolPhase) return `${at}: a run phase with a call`;
        const current = open ? group : undefined;
        if (current === undefined || current.ended > 0 || !current.calls.includes(item.callId))
          return `${at}: a call's own events come between its group's starts and ends`;
        if (item.turn !== current.turn) return `${at}: a call's events have its turn`;
        current.inner = true;
        break;
      }
      case 'tool_end':
      case 'deferred': {
        const current = open ? group : undefined;
        if (current === undefined || current.calls[current.ended] !== item.callId)
          return `${at}: ends follow their group's starts, in the same order`;
        if (item.turn !== current.turn) return `${at}: an end has its start's turn`;
        if (item.kind === 'deferred' && phase === 'opening' && entry === 'resume')
          return `${at}: an approved re-run does not defer`;
        current.ended++;
        if (item.kind === 'deferred') deferred = true;
        break;
      }
      case 'compaction':
        // Before a model call (a policy compacted the request), or after an answer (the provider did).
        if (!['opening', 'batch', 'rejected', 'answered', 'retrying'].includes(phase))
          return `${at}: a compaction comes before a model call, or after the answer it was in`;
        break;
      case 'memory_failed':
        if (phase !== 'answered' && phase !== 'decode')
          return `${at}: memory_failed comes after the final answer`;
        break;
      case 'handoff':
        // The answer called a transfer tool: the target's execution starts at turn 0.
        if (phase !== 'answered' || item.turn !== turn)
          return `${at}: a handoff comes right after the model_end whose call handed off`;
        round = 0;
        phase = 'rejected';
        break;
      case 'model_start': {
        let next: [number, number];
        if (phase === 'opening') {
          if (open || deferred) return `${at}: the opening's calls end, without a deferral, first`;
          next = [0, 1];
        } else if (phase === 'batch') {
          if (open || deferred || started < calls.length)
            return `${at}: the next turn comes after every call of the batch ended, none deferred`;
          next = [turn + 1, 1];
        } else if (phase === 'retrying') {
          if (options.streamed === true) return `${at}: streamed turns are single-attempt`;
          next = [turn, attempt + 1];
        } else if (phase === 'rejected') next = [0, 1];
        else return `${at}: model_start out of place`;
        if (item.turn !== next[0] || item.attempt !== next[1])
          return `${at}: expected model_start ${next[0]}.${next[1]}`;
        if (options.streamed === true && item.attempt !== 1)
          return `${at}: streamed turns are single-attempt`;
        [turn, attempt] = next;
        phase = 'attempt';
        modelStarted = true;
        break;
      }
      case 'fallback':
        if (phase !== 'attempt' || item.turn !== turn || item.attempt !== attempt)
          return `${at}: fallback comes within its attempt`;
        break;
      case 'model_end':
        if (phase !== 'attempt' || item.turn !== turn || item.attempt !== attempt)
          return `${at}: model_end closes the attempt model_start opened`;
        modelEnded = true;
        if (item.message === undefined) phase = 'retrying';
        else {
          phase = 'answered';
          calls = (item.message.toolCalls ?? []).map((c) => c.id);
          started = 0;
          group = undefined;
          deferred = false;
        }
        break;
      case 'output_rejected': {
        const decodable =
          phase === 'answered' ||
          phase === 'decode' ||
          (phase === 'opening' && entry === 'continue' && !openingTools && !inputChecked);
        if (!decodable) return `${at}: output_rejected comes after the final model_end`;
        if (item.attempt !== round + 1) return `${at}: correction rounds count 1, 2, …`;
        round++;
        phase = 'rejected';
        break;
      }
      case 'run_end': {
        if (open) return `${at}: every started call ends before the run does`;
        if (phase === 'attempt') return `${at}: every model_start has its model_end`;
        if (item.status === 'completed') {
          const decoded =
            phase === 'answered' ||
            phase === 'decode' ||
            (phase === 'opening' && entry === 'continue' && !openingTools && !inputChecked);
          if (!decoded) return `${at}: a run completes after its final answer`;
        } else if (item.status === 'paused') {
          const pauses =
            (phase === 'batch' && deferred && started === calls.length) ||
            (phase === 'opening' && entry === 'continue' && !modelStarted);
          if (!pauses) return `${at}: a run pauses after a batch that deferred`;
        }
        phase = 'ended';
        break;
      }
    }
  }
  if (options.cut === true) return undefined;
  return phase === 'ended' ? undefined : `the sequence ends without run_end`;
}

// ---------------------------------------------------------------------------------------------
// The projections other doors make of a run's events.

/**
 * `RunStream.events` as the projection of a run's items (docs/guides/streaming.md): one line per
 * stream event that comes from a run event, in order. Fragments (deltas) are not run events.
 */
function streamProjection(items: readonly Item[], pending: Result<unknown>['pending']): string[] {
  const out: string[] = [];
  let failed: { turn: number; attempt: number } | undefined;
  let calls: readonly string[] = [];
  for (const item of items)
    switch (item.kind) {
      case 'handoff':
        // The handing-off turn's calls get their results without running, then the handoff.
        for (const id of calls) out.push(`tool-result ${item.turn} ${id}`);
        out.push(`handoff ${item.turn} ${item.to}`);
        break;
      case 'model_start':
        if (failed !== undefined) out.push(`turn-discarded ${failed.turn}.${failed.attempt}`);
        failed = undefined;
        out.push(`turn-start ${item.turn}.${item.attempt}`);
        break;
      case 'fallback':
        out.push(`turn-discarded ${item.turn}.${item.attempt}`);
        out.push(`turn-start ${item.turn}.${item.attempt}`);
        break;
      case 'model_end':
        if (item.message === undefined) failed = { turn: item.turn, attempt: item.attempt };
        else {
          calls = (item.message.toolCalls ?? []).map((c) => c.id);
          for (const call of item.message.toolCalls ?? [])
            out.push(`tool-call-end ${item.turn} ${call.id}`);
          out.push(`turn-end ${item.turn}.${item.attempt}`);
        }
        break;
      case 'tool_end':
        out.push(
          `${item.result === undefined ? 'tool-error' : 'tool-result'} ${item.turn} ${item.callId}`,
        );
        break;
      case 'tool_resolved':
        out.push(`tool-result ${item.turn} ${item.callId} ${item.resolution}`);
        break;
      case 'output_rejected':
        out.push(`correction ${item.attempt}`);
        break;
      case 'run_end':
        if (item.status === 'failed') out.push('error');
        else {
          if (item.status === 'paused') out.push(`deferred ${pendingIds(pending)}`);
          out.push('finish');
        }
        break;
      default:
        break;
    }
  return out;
}

/** The typed stream events that come from run events, one line each (as `streamProjection`). */
function streamLines(events: readonly RunStreamEvent[]): string[] {
  return events.flatMap((e): string[] => {
    switch (e.type) {
      case 'turn-start':
      case 'turn-end':
      case 'turn-discarded':
        return [`${e.type} ${e.turn}.${e.attempt}`];
      case 'tool-call-end':
        return [`tool-call-end ${e.turn} ${e.callId}`];
      case 'tool-result':
        return [
          `tool-result ${e.turn} ${e.callId}${e.resolution === undefined ? '' : ` ${e.resolution}`}`,
        ];
      case 'tool-error':
        return [`tool-error ${e.turn} ${e.callId}`];
      case 'correction':
        return [`correction ${e.round}`];
      case 'handoff':
        return [`handoff ${e.turn} ${e.to}`];
      case 'deferred':
        return [`deferred ${pendingIds(e.pending)}`];
      case 'finish':
      case 'error':
        return [e.type];
      default:
        return []; // fragments: text, reasoning, a call's streamed start and arguments
    }
  });
}

function pendingIds(pending: Result<unknown>['pending']): string {
  if (pending === undefined) return '-';
  return [...pending.approvals, ...pending.external].map((c) => c.callId).join(',');
}

/**
 * The run events a UI message chunk comes from, one line each; chunks made from fragments or
 * from other chunks (text parts, tool inputs, step ends) are skipped. `tool-approval-request`s
 * belong to the pause: they are checked with `run_end`.
 */
function uiSources(chunks: readonly UIMessageChunk[]): string[] {
  const out: string[] = [];
  let failed = false;
  for (const chunk of chunks)
    switch (chunk.type) {
      case 'start':
        out.push('run_start');
        break;
      case 'start-step':
        out.push('model_start');
        break;
      case 'data-turn-discarded':
        out.push('model_end failed');
        break;
      case 'tool-output-available':
      case 'tool-output-error':
        out.push(`tool_end ${chunk.toolCallId}`);
        break;
      case 'tool-output-denied':
        out.push(`tool_resolved ${chunk.toolCallId} denied`);
        break;
      case 'data-handoff':
        out.push(`handoff ${(chunk.data as { to: string }).to}`);
        break;
      case 'error':
        failed = true;
        out.push('run_end failed');
        break;
      case 'finish': {
        if (failed) break;
        const metadata = chunk.messageMetadata as { pending?: unknown } | undefined;
        out.push(metadata?.pending === null ? 'run_end completed' : 'run_end paused');
        break;
      }
      default:
        break;
    }
  return out;
}

/**
 * What the chat route must show of a run's items, as `uiSources` lines: a step per model attempt,
 * a discarded step per failed attempt another follows, a tool output per executed call, a denial
 * per denied call, then the end. On a chat resume (`resumed`), the client already holds the
 * decisions: denied calls end at the start of the message, before anything runs, and external
 * results show nothing.
 */
function uiProjection(items: readonly Item[], resumed: boolean): string[] {
  const out: string[] = [];
  const denials: string[] = [];
  let failed = false;
  let calls: readonly string[] = [];
  for (const item of items)
    switch (item.kind) {
      case 'run_start':
        out.push('run_start');
        break;
      case 'handoff':
        for (const id of calls) out.push(`tool_end ${id}`);
        out.push(`handoff ${item.to}`);
        break;
      case 'model_start':
        if (failed) out.push('model_end failed');
        failed = false;
        out.push('model_start');
        break;
      case 'model_end':
        failed = item.message === undefined;
        calls = (item.message?.toolCalls ?? []).map((c) => c.id);
        break;
      case 'tool_end':
        out.push(`tool_end ${item.callId}`);
        break;
      case 'tool_resolved':
        if (item.resolution === 'external') {
          if (!resumed) out.push(`tool_end ${item.callId}`);
        } else if (resumed) denials.push(`tool_resolved ${item.callId} denied`);
        else out.push(`tool_resolved ${item.callId} denied`);
        break;
      case 'run_end':
        out.push(`run_end ${item.status}`);
        break;
      default:
        break;
    }
  return [out[0] ?? '', ...denials, ...out.slice(1)];
}

// ---------------------------------------------------------------------------------------------
// The scenarios: one agent each, a stateless model (it reads the turn from the request) unless
// the scenario counts its calls.

type TestAgent = Agent<unknown, string, true>;

/** How a person resolves a pause. */
interface Decisions {
  approvals?: Record<string, Approval>;
  external?: Record<string, string>;
}

interface World {
  store?: RunStore;
  /** The `step` call that never returns (a process that dies there). */
  hang?: string;
  /** Whether `step` may run again after a crash. */
  idempotent?: boolean;
  /** The agent's observer of every run. */
  onEvent?: (event: RunEvent) => void;
}

interface Scenario {
  readonly name: string;
  agent(world?: World): TestAgent;
  /** How the pause is resolved, when the scenario pauses. */
  readonly decisions?: Decisions;
  /** The `run` door's items, as labels: what the scenario is about. */
  readonly run: readonly string[];
  /** The resume's items, as labels. */
  readonly resume?: readonly string[];
}

const CALLS_USAGE = { inputTokens: 5, outputTokens: 1 };

/** Whether the request carries a correction (an output rejection fed back). */
function corrected(messages: readonly Message[]): boolean {
  return messages.filter((m) => m.role === 'user').length > 1;
}

/** The number of assistant turns in the request. */
function turnOf(messages: readonly Message[]): number {
  return messages.filter((m) => m.role === 'assistant').length;
}

/**
 * A model that calls `calls` on its first turn, then answers `answer` (streamed in two pieces);
 * after a correction it answers `corrected`.
 */
function model(
  calls: readonly ScriptedToolCall[],
  answer = 'done',
  fixed = answer,
): StreamFunctionModel {
  return new StreamFunctionModel(async (request, emit) => {
    if (calls.length > 0 && turnOf(request.messages) === 0)
      return toolCallResponse(calls, CALLS_USAGE);
    const text = corrected(request.messages) ? fixed : answer;
    await emit({ content: text.slice(0, 2) });
    await emit({ content: text.slice(2) });
    return textResponse(text, { inputTokens: 10, outputTokens: 2 });
  });
}

/**
 * The `step` tool: reports progress and a log line, then answers. With `interleave`, call a1
 * waits until a2 has reported and returned, so the calls' events interleave out of call order.
 */
function stepTool(world: World, interleave: boolean) {
  const a2done = gate();
  return defineTool({
    name: 'step',
    description: 'Do one step.',
    schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    ...(world.idempotent !== undefined && { idempotent: world.idempotent }),
    execute: async (args, ctx) => {
      if (ctx.callId === world.hang) return forever();
      if (interleave && ctx.callId === 'a1' && world.hang === undefined) await a2done.promise;
      ctx.report?.({ kind: 'progress', progress: 1, total: 1 });
      ctx.report?.({ kind: 'log', level: 'info', data: `step ${ctx.callId}` });
      if (ctx.callId === 'a2') a2done.open();
      return `did ${(args as { name: string }).name}`;
    },
  });
}

const pay = defineTool({
  name: 'pay',
  description: 'Pay for something.',
  schema: { type: 'object', properties: { what: { type: 'string' } }, required: ['what'] },
  approval: true,
  execute: (args) => `paid ${(args as { what: string }).what}`,
});

const ask = defineTool({
  name: 'ask',
  description: 'Ask a person.',
  schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  execute: () => {
    throw deferExternal('by hand');
  },
});

function agentOf(
  world: World,
  config: {
    model: StreamFunctionModel;
    interleave?: boolean;
    guardrails?: Guardrails<unknown, string>;
    output?: OutputDecoder<string>;
    name?: string;
    handoffs?: readonly TestAgent[];
  },
): TestAgent {
  return new Agent<unknown, string, true>({
    ...(config.name !== undefined && { name: config.name }),
    ...(config.handoffs !== undefined && { handoffs: config.handoffs }),
    model: config.model,
    tools: [stepTool(world, config.interleave ?? false), pay, ask],
    parallelToolCalls: true,
    deferredTools: true,
    maxAttempts: 2,
    outputRetries: 2,
    sleep: () => Promise.resolve(),
    ...(world.store !== undefined && { store: world.store }),
    ...(world.onEvent !== undefined && { onEvent: world.onEvent }),
    ...(config.guardrails !== undefined && { guardrails: config.guardrails }),
    ...(config.output !== undefined && { output: config.output }),
  });
}

const STEPS: ScriptedToolCall[] = [
  { id: 'a1', name: 'step', args: { name: 'A' } },
  { id: 'a2', name: 'step', args: { name: 'B' } },
];

const PLAIN: Scenario = {
  name: 'plain answer',
  agent: (world = {}) => agentOf(world, { model: model([]) }),
  run: ['run_start', 'model_start 0.1', 'model_end 0.1 ok', 'run_end completed'],
};

const PARALLEL: Scenario = {
  name: 'two parallel tool calls',
  agent: (world = {}) => agentOf(world, { model: model(STEPS), interleave: true }),
  run: [
    'run_start',
    'model_start 0.1',
    'model_end 0.1 ok',
    'tool_start 0 a1',
    'tool_start 0 a2',
    // a1 waits for a2: the calls' own events interleave as they run...
    'tool_progress 0 a2',
    'tool_log 0 a2',
    'tool_progress 0 a1',
    'tool_log 0 a1',
    // ...and the ends come in call order.
    'tool_end 0 a1 ok',
    'tool_end 0 a2 ok',
    'model_start 1.1',
    'model_end 1.1 ok',
    'run_end completed',
  ],
};

const RETRY: Scenario = {
  name: 'a retry after a failed model call',
  agent: (world = {}) => {
    let calls = 0;
    const inner = model([]);
    const flaky = new StreamFunctionModel(async (request, emit, options) => {
      calls++;
      if (calls === 1) throw new ModelHTTPError({ status: 429, provider: 'acme' });
      return inner.stream(request, emit, options);
    });
    return agentOf(world, { model: flaky });
  },
  run: [
    'run_start',
    'model_start 0.1',
    'model_end 0.1 failed',
    'model_start 0.2',
    'model_end 0.2 ok',
    'run_end completed',
  ],
};

const APPROVALS: Scenario = {
  name: 'an approval pause, resumed (one approved, one denied)',
  agent: (world = {}) =>
    agentOf(world, {
      model: model([
        { id: 'a1', name: 'step', args: { name: 'A' } },
        { id: 'p1', name: 'pay', args: { what: 'rent' } },
        { id: 'p2', name: 'pay', args: { what: 'a yacht' } },
      ]),
    }),
  decisions: {
    approvals: { p1: { approved: true }, p2: { approved: false, reason: 'too costly' } },
  },
  run: [
    'run_start',
    'model_start 0.1',
    'model_end 0.1 ok',
    'tool_start 0 a1',
    'tool_start 0 p1',
    'tool_start 0 p2',
    'tool_progress 0 a1',
    'tool_log 0 a1',
    'tool_end 0 a1 ok',
    'deferred 0 p1',
    'deferred 0 p2',
    'run_end paused',
  ],
  resume: [
    'run_start',
    'tool_start 0 p1',
    'tool_end 0 p1 ok',
    'tool_resolved 0 p2 denied',
    'model_start 0.1',
    'model_end 0.1 ok',
    'run_end completed',
  ],
};

const EXTERNAL: Scenario = {
  name: 'an external result',
  agent: (world = {}) =>
    agentOf(world, { model: model([{ id: 'x1', name: 'ask', args: { q: 'weather' } }]) }),
  decisions: { external: { x1: 'sunny' } },
  run: [
    'run_start',
    'model_start 0.1',
    'model_end 0.1 ok',
    'tool_start 0 x1',
    'deferred 0 x1',
    'run_end paused',
  ],
  resume: [
    'run_start',
    'tool_resolved 0 x1 external',
    'model_start 0.1',
    'model_end 0.1 ok',
    'run_end completed',
  ],
};

/** A decoder that rejects the answer "bad" with a ModelRetry. */
const pickyDecoder: OutputDecoder<string> = (response) => {
  const text = response.message.content ?? '';
  if (text === 'bad') throw new ModelRetry('say something good');
  return text;
};

const OUTPUT_RETRY: Scenario = {
  name: 'an output ModelRetry',
  agent: (world = {}) => agentOf(world, { model: model([], 'bad', 'good'), output: pickyDecoder }),
  run: [
    'run_start',
    'model_start 0.1',
    'model_end 0.1 ok',
    'output_rejected 1',
    'model_start 0.1',
    'model_end 0.1 ok',
    'run_end completed',
  ],
};

const GUARDRAILS: Guardrails<unknown, string> = {
  input: [
    { name: 'first', check: () => undefined },
    { name: 'alongside', mode: 'parallel', check: async () => verdict.pass() },
  ],
  tool: [
    {
      name: 'tool-check',
      tools: ['step'],
      before: () => undefined,
      after: (call) => verdict.rewrite(call.result.toUpperCase()),
    },
  ],
  output: [
    {
      name: 'no-bad',
      onTrip: 'retry',
      check: (output) => (output === 'bad' ? verdict.trip('not that') : undefined),
    },
  ],
};

const GUARDED: Scenario = {
  name: 'guardrail checks',
  agent: (world = {}) =>
    agentOf(world, {
      model: model([{ id: 'a1', name: 'step', args: { name: 'A' } }], 'bad', 'good'),
      guardrails: GUARDRAILS,
    }),
  // The parallel input check ("alongside") is left out: it may come before or after the first
  // model_start (the contract allows both; the checker checks it).
  run: [
    'run_start',
    'guardrail input first pass',
    'model_start 0.1',
    'model_end 0.1 ok',
    'tool_start 0 a1',
    'guardrail tool_input 0 a1 tool-check pass',
    'tool_progress 0 a1',
    'tool_log 0 a1',
    'guardrail tool_output 0 a1 tool-check rewrite',
    'tool_end 0 a1 ok',
    'model_start 1.1',
    'model_end 1.1 ok',
    'guardrail output no-bad retry',
    'output_rejected 1',
    'model_start 0.1',
    'model_end 0.1 ok',
    'guardrail output no-bad pass',
    'run_end completed',
  ],
};

const HANDOFF: Scenario = {
  name: 'a handoff',
  agent: (world = {}) =>
    agentOf(world, {
      name: 'front',
      model: model([{ id: 'h1', name: 'transfer_to_helper' }]),
      handoffs: [agentOf(world, { name: 'helper', model: model([]) })],
    }),
  // The target's execution starts at turn 0.
  run: [
    'run_start',
    'model_start 0.1',
    'model_end 0.1 ok',
    'handoff 0 front>helper',
    'model_start 0.1',
    'model_end 0.1 ok',
    'run_end completed',
  ],
};

const SCENARIOS: Scenario[] = [
  PLAIN,
  PARALLEL,
  RETRY,
  APPROVALS,
  EXTERNAL,
  OUTPUT_RETRY,
  GUARDED,
  HANDOFF,
];

// ---------------------------------------------------------------------------------------------
// The doors: each gives the run's items, framed.

/** Records a run's events between its start and its end. */
class Recording {
  readonly items: Item[] = [{ kind: 'run_start' }];
  /** Settles when the run ended (set by whoever starts the run). */
  done: Promise<unknown> = Promise.resolve();
  /** The run's result, once it ended with one. */
  result: Result<string> | undefined;
  readonly observer = (event: RunEvent): void => {
    this.items.push(event);
  };

  /** Ends the recording with the outcome of `settled`; returns the result, if any. */
  async end(settled: Promise<Result<string>>): Promise<Result<string> | undefined> {
    try {
      const result = await settled;
      this.result = result;
      this.items.push({
        kind: 'run_end',
        status: result.pending === undefined ? 'completed' : 'paused',
      });
      return result;
    } catch {
      this.items.push({ kind: 'run_end', status: 'failed' });
      return undefined;
    }
  }

  /** The items as labels, without the parallel input check (its place may vary; see GUARDED). */
  get labels(): string[] {
    return this.items.map(label).filter((l) => !l.startsWith('guardrail input alongside'));
  }
}

function expectOrder(items: readonly Item[], entry: Entry, streamed = false): void {
  expect(orderViolation(items, entry, { streamed })).toBeUndefined();
}

/** `run`: the observer's events; the agent's `onEvent` sees the same ones, first. */
async function viaRun(agent: TestAgent, options: { runId?: string } = {}) {
  const recording = new Recording();
  const result = await recording.end(agent.run('go', { ...options, observer: recording.observer }));
  return { recording, result };
}

/** A stream's typed events, read to the end, and its result. */
async function readStream(
  stream: { events: AsyncIterable<RunStreamEvent<string>>; result: Promise<Result<string>> },
  recording: Recording,
) {
  const events: RunStreamEvent<string>[] = [];
  for await (const event of stream.events) events.push(event);
  const result = await recording.end(stream.result);
  expect(streamLines(events)).toEqual(streamProjection(recording.items, result?.pending));
  // `finish` or `error` is last: nothing the run emits comes after it.
  expect(['finish', 'error']).toContain(events.at(-1)?.type);
  return { recording, result, events };
}

async function viaRunStream(agent: TestAgent) {
  const recording = new Recording();
  return readStream(agent.runStream('go', { observer: recording.observer }), recording);
}

async function viaResume(
  agent: TestAgent,
  target: readonly Message[] | string,
  decisions: Decisions,
) {
  const recording = new Recording();
  const result = await recording.end(
    agent.resume(target, decisions, { observer: recording.observer }),
  );
  return { recording, result };
}

describe('the contract checker', () => {
  test('accepts every scenario as the run door delivers it', async () => {
    for (const scenario of SCENARIOS) {
      const { recording } = await viaRun(scenario.agent());
      expectOrder(recording.items, 'run');
    }
  });

  /** The parallel scenario's run, with one change each. */
  const mutations: [string, (items: Item[]) => Item[], RegExp][] = [
    [
      'tool_end before its tool_start',
      (items) =>
        move(
          items,
          (i) => isEnd(i, 'a1'),
          (i) => isStart(i, 'a1'),
        ),
      /ends follow their group's starts/,
    ],
    [
      'ends out of the starts order',
      (items) =>
        move(
          items,
          (i) => isEnd(i, 'a2'),
          (i) => isEnd(i, 'a1'),
        ),
      /ends follow their group's starts, in the same order/,
    ],
    [
      'a call reporting after its end',
      (items) =>
        move(
          items,
          (i) => i.kind === 'tool_log' && i.callId === 'a1',
          (i) => isEnd(i, 'a2'),
        ),
      /a call's own events come between/,
    ],
    [
      'a tool_start after the group started reporting',
      (items) =>
        move(
          items.filter(
            (i) => !(i.kind === 'tool_log' || i.kind === 'tool_progress') || i.callId !== 'a2',
          ),
          (i) => isStart(i, 'a2'),
          (i) => i.kind === 'tool_log' && i.callId === 'a1',
        ),
      /a group's tool_starts come together/,
    ],
    [
      'run_end not last',
      (items) =>
        move(
          items,
          (i) => i.kind === 'run_end',
          (i) => i.kind === 'model_end' && i.turn === 1,
        ),
      /every model_start has its model_end/,
    ],
    [
      'an event after run_end',
      (items) => [...items, { kind: 'run_end', status: 'completed' }],
      /nothing follows run_end/,
    ],
    ['no run_end', (items) => items.slice(0, -1), /ends without run_end/],
    ['no run_start', (items) => items.slice(1), /run_start comes first/],
    [
      'the next turn before the batch ended',
      (items) =>
        move(
          items,
          (i) => i.kind === 'model_start' && i.turn === 1,
          (i) => isEnd(i, 'a2'),
        ),
      /after every call of the batch ended/,
    ],
    [
      'a turn number skipped',
      (items) =>
        items.map((i) => (i.kind === 'model_start' && i.turn === 1 ? { ...i, turn: 2 } : i)),
      /expected model_start 1\.1/,
    ],
    [
      'a resolution in a new run',
      (items) => [
        items[0] as Item,
        {
          kind: 'tool_resolved',
          turn: 0,
          callId: 'p9',
          toolName: 'pay',
          args: '{}',
          result: 'no',
          resolution: 'denied',
        },
        ...items.slice(1),
      ],
      /tool_resolved only on resume/,
    ],
    [
      'an input check after the first answer',
      (items) => [
        ...items.slice(0, 3),
        { kind: 'guardrail', guardrail: { name: 'late', phase: 'input', outcome: 'pass' } },
        ...items.slice(3),
      ],
      /input checks come before the first model_end/,
    ],
    [
      'a pause without a deferral',
      (items) => [...items.slice(0, -3), { kind: 'run_end', status: 'paused' }],
      /a run pauses after a batch that deferred/,
    ],
  ];

  test.each(mutations)('rejects %s', async (_name, mutate, why) => {
    const { recording } = await viaRun(PARALLEL.agent());
    expectOrder(recording.items, 'run');
    const broken = mutate(recording.items);
    expect(broken).not.toEqual(recording.items);
    expect(orderViolation(broken, 'run')).toMatch(why);
  });

  test('rejects a streamed turn with a second attempt, and a resumed re-run that defers', () => {
    const request = { messages: [], tools: [] };
    const items: Item[] = [
      { kind: 'run_start' },
      { kind: 'model_start', turn: 0, attempt: 1, request },
      {
        kind: 'model_end',
        turn: 0,
        attempt: 1,
        usage: { inputTokens: 0, outputTokens: 0 },
        error: 'x',
      },
      { kind: 'model_start', turn: 0, attempt: 2, request },
    ];
    expect(orderViolation(items, 'run')).toMatch(/ends without run_end/);
    expect(orderViolation(items, 'run', { streamed: true })).toMatch(/single-attempt/);
    const call = { turn: 0, callId: 'p1', toolName: 'pay', args: '{}' };
    const rerun: Item[] = [
      { kind: 'run_start' },
      { kind: 'tool_start', ...call },
      { kind: 'deferred', ...call },
      { kind: 'run_end', status: 'failed' },
    ];
    expect(orderViolation(rerun, 'resume')).toMatch(/an approved re-run does not defer/);
    expect(orderViolation(rerun, 'continue')).toBeUndefined(); // a continued batch may defer
  });
});

function isStart(item: Item, callId: string): boolean {
  return item.kind === 'tool_start' && item.callId === callId;
}

function isEnd(item: Item, callId: string): boolean {
  return item.kind === 'tool_end' && item.callId === callId;
}

/** `items` with the first item matching `what` moved to just before the first matching `before`. */
function move(
  items: readonly Item[],
  what: (i: Item) => boolean,
  before: (i: Item) => boolean,
): Item[] {
  const from = items.findIndex(what);
  const moved = items[from] as Item;
  const rest = items.filter((_, i) => i !== from);
  const to = rest.findIndex(before);
  return [...rest.slice(0, to), moved, ...rest.slice(to)];
}

// ---------------------------------------------------------------------------------------------
// Every door.

describe.each(SCENARIOS.map((s) => [s.name, s] as const))('%s', (_name, scenario) => {
  test('run: the documented order, and the agent onEvent sees the same events first', async () => {
    const seen: RunEvent[] = [];
    const calls: string[] = [];
    const recording = new Recording();
    const agent = scenario.agent({
      onEvent: (e) => {
        calls.push('onEvent');
        seen.push(e);
      },
    });
    const observer = (e: RunEvent): void => {
      calls.push('observer');
      recording.observer(e);
    };
    await recording.end(agent.run('go', { observer }));
    expectOrder(recording.items, 'run');
    expect(recording.labels).toEqual(scenario.run);
    expect(seen).toEqual(recording.items.slice(1, -1));
    expect(calls).toEqual(seen.flatMap(() => ['onEvent', 'observer']));
  });

  test('runStream: the same order; its events are the projection of its run events', async () => {
    const { recording } = await viaRunStream(scenario.agent());
    expectOrder(recording.items, 'run', true);
    if (scenario === RETRY)
      // Streamed turns are single-attempt: the failed attempt ends the run.
      expect(recording.labels).toEqual([
        'run_start',
        'model_start 0.1',
        'model_end 0.1 failed',
        'run_end failed',
      ]);
    else expect(recording.labels).toEqual(scenario.run);
  });

  const decisions = scenario.decisions;
  if (decisions === undefined) return;

  test('resume in memory, and resumeStream: resolutions first, in call order', async () => {
    const agent = scenario.agent();
    const { result: paused } = await viaRun(agent);
    const messages = paused?.messages ?? [];
    const { recording } = await viaResume(agent, messages, decisions);
    expectOrder(recording.items, 'resume');
    expect(recording.labels).toEqual(scenario.resume);

    const streamed = new Recording();
    await readStream(
      agent.resumeStream(messages, decisions, { observer: streamed.observer }),
      streamed,
    );
    expectOrder(streamed.items, 'resume', true);
    expect(streamed.labels).toEqual(scenario.resume);
  });

  test('resume by stored run id (memory store): the same order', async () => {
    const clock = new FakeClock();
    const agent = scenario.agent({ store: memoryStore({ clock: clock.now }) });
    const first = await viaRun(agent, { runId: 'r1' });
    expectOrder(first.recording.items, 'run');
    expect(first.recording.labels).toEqual(scenario.run);
    // A paused run continued comes back as it is, without an event.
    const asIs = new Recording();
    await asIs.end(agent.resumeRun('r1', { observer: asIs.observer }));
    expectOrder(asIs.items, 'continue');
    expect(asIs.labels).toEqual(['run_start', 'run_end paused']);
    const { recording } = await viaResume(agent, 'r1', decisions);
    expectOrder(recording.items, 'resume');
    expect(recording.labels).toEqual(scenario.resume);
  });
});

// ---------------------------------------------------------------------------------------------
// resumeRun after a crash: the process dies right after a checkpoint write landed (nothing it
// does afterwards returns), the lease expires on a fake clock, and a fresh agent continues.

/** `inner` as a dying process sees it: it dies right after the write `diesAfter` picks. */
function dyingStore(
  inner: RunStore,
  diesAfter: (run: StoredRun) => boolean,
): { store: RunStore; died: Promise<void> } {
  const death = gate();
  let dead = false;
  const landed = <T>(run: StoredRun, value: T): Promise<T> => {
    if (!diesAfter(run)) return Promise.resolve(value);
    dead = true;
    death.open();
    return forever();
  };
  const store: RunStore = {
    leaseMs: inner.leaseMs,
    now: () => inner.now(),
    migrate: () => inner.migrate(),
    close: () => Promise.resolve(),
    getRun: (id) => inner.getRun(id),
    getConversation: (id) => inner.getConversation(id),
    listRuns: (filter) => inner.listRuns(filter),
    replaceRun: async (run, expected, options) =>
      dead ? forever() : landed(run, await inner.replaceRun(run, expected, options)),
    transaction: (body) => (dead ? forever() : inner.transaction(body)),
  };
  const insert = inner.insertRun?.bind(inner);
  if (insert !== undefined)
    store.insertRun = async (run, options) =>
      dead ? forever() : landed(run, await insert(run, options));
  return { store, died: death.promise };
}

/** The stored run's last message, when it is an assistant's final answer. */
function finalAnswer(run: StoredRun): string | undefined {
  const last = (JSON.parse(run.messages) as Message[]).at(-1);
  if (last?.role !== 'assistant' || (last.toolCalls ?? []).length > 0) return undefined;
  return last.content ?? '';
}

interface CrashCase {
  readonly name: string;
  readonly scenario: Scenario;
  readonly idempotent?: boolean;
  /** The `step` call that never returns in the dying process. */
  readonly hang?: string;
  readonly diesAfter: (run: StoredRun) => boolean;
  /** `resumeRun`'s items, as labels. */
  readonly continued: readonly string[];
  /** The output the run ends with. */
  readonly output: string;
  /** When the continued run pauses: the decisions, and the resume's items. */
  readonly then?: { decisions: Decisions; resumed: readonly string[] };
}

const A2_CONTINUED = [
  'tool_start 0 a2',
  'tool_progress 0 a2',
  'tool_log 0 a2',
  'tool_end 0 a2 ok',
  'model_start 0.1',
  'model_end 0.1 ok',
  'run_end completed',
];

const CRASHES: CrashCase[] = [
  {
    name: 'in a parallel batch, an idempotent call in flight: the batch goes on first',
    scenario: PARALLEL,
    idempotent: true,
    hang: 'a2',
    diesAfter: (run) => run.inFlight === '["a2"]',
    continued: ['run_start', ...A2_CONTINUED],
    output: 'done',
  },
  {
    name: 'in a parallel batch, a call in flight: the run pauses without an event, then resumes',
    scenario: PARALLEL,
    hang: 'a2',
    diesAfter: (run) => run.inFlight === '["a2"]',
    continued: ['run_start', 'run_end paused'],
    then: {
      decisions: { approvals: { a2: { approved: true } } },
      resumed: ['run_start', ...A2_CONTINUED],
    },
    output: 'done',
  },
  {
    name: 'at a committed final answer: no model call, the decode first',
    scenario: GUARDED,
    diesAfter: (run) => run.status === 'running' && finalAnswer(run) === 'bad',
    continued: [
      'run_start',
      'guardrail output no-bad retry',
      'output_rejected 1',
      'model_start 0.1',
      'model_end 0.1 ok',
      'guardrail output no-bad pass',
      'run_end completed',
    ],
    output: 'good',
  },
  {
    name: 'at a committed plain answer: no event at all',
    scenario: PLAIN,
    diesAfter: (run) => run.status === 'running' && finalAnswer(run) === 'done',
    continued: ['run_start', 'run_end completed'],
    output: 'done',
  },
];

describe('resumeRun after a crash', () => {
  test.each(CRASHES.map((c) => [c.name, c] as const))('%s', async (_name, crash) => {
    const clock = new FakeClock();
    const inner = memoryStore({ clock: clock.now });
    const idempotent = crash.idempotent ?? false;
    const dying = dyingStore(inner, crash.diesAfter);
    const doomed = new Recording();
    const agent = crash.scenario.agent({ store: dying.store, hang: crash.hang, idempotent });
    void agent.run('go', { runId: 'r1', observer: doomed.observer });
    await dying.died;
    // What the dying process emitted kept the order, up to where it died.
    expect(orderViolation(doomed.items, 'run', { cut: true })).toBeUndefined();
    clock.advance(inner.leaseMs + 1);

    const next = crash.scenario.agent({ store: inner, idempotent });
    const recording = new Recording();
    const result = await recording.end(next.resumeRun('r1', { observer: recording.observer }));
    expectOrder(recording.items, 'continue');
    expect(recording.labels).toEqual(crash.continued);
    if (crash.then === undefined) {
      expect(result?.output).toBe(crash.output);
      return;
    }
    expect(result?.pending?.approvals.map((c) => c.callId)).toEqual(['a2']);
    const { recording: resumed, result: final } = await viaResume(next, 'r1', crash.then.decisions);
    expectOrder(resumed.items, 'resume');
    expect(resumed.labels).toEqual(crash.then.resumed);
    expect(final?.output).toBe(crash.output);
  });
});

// ---------------------------------------------------------------------------------------------
// The golem/ui chat route: each run it starts is observed; its chunks, mapped back to the run
// events they come from, follow the run's events.

/** The agent as the chat route sees it, recording every run the route starts. */
function observedChat(agent: TestAgent): { chat: ChatAgent<unknown, string>; runs: Recording[] } {
  const runs: Recording[] = [];
  const chat: ChatAgent<unknown, string> = {
    store: agent.store,
    name: agent.name,
    runStream: (prompt, options) => {
      const recording = new Recording();
      runs.push(recording);
      const stream = agent.runStream(prompt, { ...options, observer: recording.observer });
      recording.done = recording.end(stream.result);
      return stream;
    },
    resumeStream: (history, decisions, options) => {
      const recording = new Recording();
      runs.push(recording);
      const stream = agent.resumeStream(history, decisions, {
        ...options,
        observer: recording.observer,
      });
      recording.done = recording.end(stream.result);
      return stream;
    },
  };
  return { chat, runs };
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

/** One request to the chat route; its chunks, and the run it started. */
async function chatTurn(
  chat: ChatAgent<unknown, string>,
  runs: Recording[],
  messages: UIMessage[],
): Promise<{ chunks: UIMessageChunk[]; run: Recording }> {
  const response = await chatResponse(chat, { messages });
  expect(response.status).toBe(200);
  const chunks = await parseSseBytes(response.body as ReadableStream<Uint8Array>);
  const run = runs.at(-1) as Recording;
  await run.done;
  return { chunks, run };
}

/**
 * The approval requests of a paused chat message: one per pending approval (each a call that
 * deferred), after every tool output — they belong to the pause, which comes last.
 */
function expectApprovalRequests(chunks: readonly UIMessageChunk[], run: Recording): void {
  const requests = chunks.flatMap((c, i) => (c.type === 'tool-approval-request' ? [i] : []));
  const approvals = run.result?.pending?.approvals.map((c) => c.callId) ?? [];
  expect(requests.map((i) => (chunks[i] as { toolCallId: string }).toolCallId)).toEqual(approvals);
  const deferred = run.items.flatMap((i) => (i.kind === 'deferred' ? [i.callId] : []));
  for (const id of approvals) expect(deferred).toContain(id);
  const outputs = chunks.flatMap((c, i) => (c.type.startsWith('tool-output') ? [i] : []));
  for (const i of requests) for (const o of outputs) expect(i).toBeGreaterThan(o);
}

describe.each(SCENARIOS.map((s) => [s.name, s] as const))(
  'the chat route — %s',
  (_name, scenario) => {
    test('its chunks come from the run events, in their order', async () => {
      const agent = scenario.agent();
      const { chat, runs } = observedChat(agent);
      const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }] };
      const first = await chatTurn(chat, runs, [user]);
      expectOrder(first.run.items, 'run', true);
      expect(uiSources(first.chunks)).toEqual(uiProjection(first.run.items, false));
      expectApprovalRequests(first.chunks, first.run);
      if (scenario.decisions === undefined) return;

      const { message } = await foldMessage(first.chunks);
      if (message === undefined) throw new Error('the chat route answered no message');
      const second = await chatTurn(chat, runs, [user, decided(message, scenario.decisions)]);
      expectOrder(second.run.items, 'resume', true);
      expect(second.run.labels).toEqual(scenario.resume);
      expect(uiSources(second.chunks)).toEqual(uiProjection(second.run.items, true));
      if (scenario === APPROVALS)
        // The one place a door reorders: the client holds the decisions, so the denial (p2) ends
        // its part at the start of the message, before the approved call (p1) re-runs — while the
        // run events, `resume` and `resumeStream` keep the calls' order (p1, then p2).
        expect(uiSources(second.chunks)).toEqual([
          'run_start',
          'tool_resolved p2 denied',
          'tool_end p1',
          'model_start',
          'run_end completed',
        ]);
    });
  },
);
