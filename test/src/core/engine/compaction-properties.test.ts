import fc from 'fast-check';
import {
  Agent,
  defineTool,
  type Compaction,
  type CompactionOptions,
  type CompactionPolicy,
  type Message,
  type ModelRequest,
  type ModelResponse,
  type Result,
} from 'golem';
import { FunctionModel } from 'golem/testing';
import { compactionPlan } from '../../../../src/core/engine/compaction-plan';
import type { EngineConfig } from '../../../../src/core/engine/run-config';
import { prepareContext } from '../../../../src/core/engine/compact';
import { readCompactions } from '../../../../src/core/engine/compaction-record';
import { estimateTokens, messageCounter } from '../../../../src/core/engine/context-tokens';
import { contextView, keepFrom } from '../../../../src/core/engine/context-view';
import type { RunProgress } from '../../../../src/core/engine/run-progress';

// Context compaction's invariants over random histories, budgets, keep rules and policies: no
// orphan call or result, the system message untouched, the newest turns verbatim, thinking blocks
// only on the originals, the originals kept, the records in range and rebuilding the context.

const INSTRUCTIONS = 'You are a careful assistant.';
const count = messageCounter(estimateTokens);

/** One assistant step of a script: its text, its calls (with result sizes) and maybe thinking. */
interface Step {
  text: string;
  calls: number[];
  thinking: boolean;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  text: fc.string({ minLength: 0, maxLength: 300 }),
  calls: fc.array(fc.integer({ min: 0, max: 1500 }), { maxLength: 3 }),
  thinking: fc.boolean(),
});

/** A turn of a prior conversation: a user message, then assistant steps. */
const turnArb = fc.record({
  user: fc.string({ minLength: 1, maxLength: 400 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 3 }),
});

let ids = 0;
/** When set, call ids cycle through this many values: ids repeat across the conversation. */
let idPool: number | undefined;
function assistantOf(step: Step, tag: string): Message {
  const m: Message = { role: 'assistant' };
  if (step.text !== '' || step.calls.length === 0) m.content = `${tag}: ${step.text}`;
  if (step.calls.length > 0)
    m.toolCalls = step.calls.map((size) => ({
      id: `call_${idPool === undefined ? ++ids : ++ids % idPool}`,
      name: 'lookup',
      args: JSON.stringify({ size }),
    }));
  if (step.thinking)
    m.thinking = [{ text: `reasoning for ${tag}`, signature: `sig-${tag}`, provider: 'anthropic' }];
  return m;
}

function resultOf(call: { id: string; args: string }): Message {
  const { size } = JSON.parse(call.args) as { size: number };
  return { role: 'tool', toolCallId: call.id, toolName: 'lookup', content: 'r'.repeat(size) };
}

/** A valid prior conversation (no system message): every call followed by its result. */
function historyOf(turns: { user: string; steps: Step[] }[]): Message[] {
  const messages: Message[] = [];
  turns.forEach((turn, t) => {
    messages.push({ role: 'user', content: turn.user });
    turn.steps.forEach((step, s) => {
      const m = assistantOf(step, `h${t}.${s}`);
      messages.push(m);
      for (const call of m.toolCalls ?? []) messages.push(resultOf(call));
    });
  });
  return messages;
}

/** What a deterministic summariser answers (short, so a summary shrinks what it replaces). */
function summariser(): FunctionModel {
  return new FunctionModel(
    (request) => ({
      message: { role: 'assistant', content: `summary of ${request.messages.length} parts` },
      usage: { inputTokens: 10, outputTokens: 5 },
      finishReason: 'stop',
    }),
    { name: 'summariser' },
  );
}

/** A custom policy: everything before the kept turns becomes one note. */
const notePolicy: CompactionPolicy = {
  name: 'note',
  compact(input) {
    const dropped = input.keepFrom - 1;
    if (dropped <= 0) return Promise.resolve(undefined);
    return Promise.resolve({ replacement: [{ role: 'user', content: `(${dropped} earlier)` }] });
  },
};

const optionsArb = fc.record({
  maxTokens: fc.integer({ min: 150, max: 4000 }),
  turns: fc.integer({ min: 1, max: 4 }),
  policies: fc.subarray(['clear-tool-results', 'summarise', 'note'] as const, { minLength: 1 }),
  order: fc.boolean(),
});

function compactionOf(
  o: {
    maxTokens: number;
    turns: number;
    policies: readonly ('clear-tool-results' | 'summarise' | 'note')[];
    order: boolean;
  },
  summary: FunctionModel = summariser(),
): CompactionOptions {
  const listed = o.policies.map((p) => (p === 'note' ? notePolicy : p));
  return {
    maxTokens: o.maxTokens,
    keep: { turns: o.turns },
    policies: o.order ? listed : [...listed].reverse(),
    summary: { model: summary },
  };
}

// ---- the checks every request must pass -----------------------------------------------------

/** No tool call without exactly one result right after its message; no result without its call. */
function expectPaired(messages: readonly Message[]): void {
  let open: string[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      expect(open).toContain(m.toolCallId);
      open = open.filter((id) => id !== m.toolCallId);
      continue;
    }
    expect(open).toEqual([]);
    open = (m.toolCalls ?? []).map((c) => c.id);
  }
  expect(open).toEqual([]);
}

/** Where the newest `turns` turns start in a conversation (system message at 0). */
function tailStart(messages: readonly Message[], turns: number): number {
  const view = contextView(messages, []);
  return keepFrom(view, turns);
}

/**
 * The request the compacted run sent (`got`) against the uncompacted one (`ref`) at the same turn,
 * given the compactions made so far.
 */
function expectRequestInvariants(
  got: readonly Message[],
  ref: readonly Message[],
  made: readonly Compaction[],
  turns: number,
): void {
  // The system message is the first, untouched, and the only one.
  expect(got[0]).toEqual({ role: 'system', content: INSTRUCTIONS });
  expect(got.filter((m) => m.role === 'system')).toHaveLength(1);
  expectPaired(got.slice(1));
  // The newest turns verbatim.
  const keep = ref.length - tailStart(ref, turns);
  expect(got.slice(got.length - keep)).toEqual(ref.slice(ref.length - keep));
  // The request is the originals with the compactions made so far applied.
  const view = contextView(ref, made);
  expect(got).toEqual(view.messages);
  // Thinking blocks: never in a replacement; elsewhere on the very original at its position.
  for (let j = 1; j < got.length; j++) {
    const m = got[j] as Message;
    if (j < 1 + view.replaced) {
      expect(m.thinking).toBeUndefined();
      continue;
    }
    const original = ref[1 + view.offset + (j - 1 - view.replaced)] as Message;
    if (m.thinking !== undefined) expect(m).toEqual(original);
    else if (m.role !== 'tool') expect(m).toEqual(original);
  }
}

function expectRecordInvariants(records: readonly Compaction[], lengths: readonly number[]): void {
  for (const c of records) {
    const length = lengths[c.turn] as number;
    expect(c.from).toBeGreaterThanOrEqual(0);
    expect(c.from).toBeLessThanOrEqual(c.to);
    expect(c.to).toBeLessThanOrEqual(length);
    if (c.policy === 'clear-tool-results' || c.policy === 'summarise')
      expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
    for (const m of c.replacement ?? []) {
      expect(m.role).not.toBe('system');
      expect(m.thinking).toBeUndefined();
    }
  }
}

// ---- prepareContext directly ----------------------------------------------------------------

function progress(messages: Message[]): RunProgress<unknown> {
  const fake = {
    messages,
    compactions: [] as Compaction[],
    anchor: undefined,
    observed: false,
    completedTurns: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    requests: 0,
    contextTokens: undefined,
    requestLength: undefined,
    run: { signal: new AbortController().signal, trace: undefined },
    emit: () => undefined,
  };
  return fake as unknown as RunProgress<unknown>;
}

test('prepareContext over a growing random history keeps every invariant', async () => {
  let compacted = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(turnArb, { minLength: 1, maxLength: 14 }),
      optionsArb,
      fc.option(fc.constant(4)),
      async (turns, options, pool) => {
        // Some providers' ids are unique per request only: a conversation may reuse them.
        idPool = pool ?? undefined;
        const history = historyOf(turns);
        idPool = undefined;
        const plan = compactionPlan(compactionOf(options), summariser());
        const full: Message[] = [{ role: 'system', content: INSTRUCTIONS }, ...history];
        const state = progress([]);
        const lengths: number[] = [];
        // Grow the conversation one turn boundary at a time, preparing a request at each.
        for (let end = 2; end <= full.length; end++) {
          const next = full[end];
          if (next !== undefined && next.role === 'tool') continue;
          state.messages = full.slice(0, end);
          state.completedTurns = lengths.length;
          lengths.push(end - 1);
          const made = [...state.compactions];
          const got = await prepareContext({ compaction: plan } as EngineConfig<unknown>, state);
          expectRequestInvariants(got, state.messages, state.compactions, options.turns);
          // Compactions fire only above the budget and stop once under the target.
          const added = state.compactions.slice(made.length);
          if (added.length > 0) {
            expect(added[0]?.tokensBefore).toBeGreaterThan(plan.maxTokens);
            for (const c of added.slice(0, -1))
              expect(c.tokensAfter).toBeGreaterThan(plan.targetTokens);
          }
          expect(state.contextTokens).toBe(got.reduce((n, m) => n + count(m), 0));
        }
        expectRecordInvariants(state.compactions, lengths);
        if (state.compactions.length > 0) compacted++;
      },
    ),
    { numRuns: 80, seed: 2901 }, // a fixed seed: the coverage check below is reproducible
  );
  expect(compacted).toBeGreaterThan(10);
});

// ---- whole runs -------------------------------------------------------------------------------

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks something up.',
  schema: { type: 'object', properties: { size: { type: 'integer' } } },
  execute: (args) => 'r'.repeat((args as { size: number }).size),
});

/** A model scripted by call index (never by content), reporting usage as the estimator counts. */
function scriptedAgentModel(steps: readonly Step[]): FunctionModel {
  let call = 0;
  return new FunctionModel((request: ModelRequest): ModelResponse => {
    const step = steps[call];
    call++;
    const message =
      step === undefined
        ? ({ role: 'assistant', content: 'done' } as Message)
        : assistantOf(step, `r${call}`);
    const inputTokens = request.messages.reduce((n, m) => n + count(m), 0);
    return {
      message,
      usage: { inputTokens, outputTokens: count(message) },
      finishReason: message.toolCalls === undefined ? 'stop' : 'tool_calls',
    };
  });
}

async function runWith(
  history: Message[],
  steps: Step[],
  compaction: CompactionOptions | undefined,
): Promise<{ model: FunctionModel; result: Awaited<ReturnType<Agent['run']>> }> {
  ids = 10_000;
  const model = scriptedAgentModel(steps.map((s) => ({ ...s, calls: s.calls })));
  const agent = new Agent({
    model,
    instructions: INSTRUCTIONS,
    tools: [lookup],
    maxIterations: 100,
    ...(compaction !== undefined && { compaction }),
  });
  const result = await agent.run('Go on.', { history });
  return { model, result };
}

test('whole runs: every request keeps the invariants and the result keeps the originals', async () => {
  let compacted = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(turnArb, { minLength: 0, maxLength: 8 }),
      fc.array(
        stepArb.filter((s) => s.calls.length > 0),
        { maxLength: 10 },
      ),
      optionsArb,
      async (turns, steps, options) => {
        ids = 0;
        const history = historyOf(turns);
        const ref = await runWith(history, steps, undefined);
        const summary = summariser();
        const compaction = compactionOf(options, summary);
        const got = await runWith(history, steps, compaction);
        expect(got.result.messages).toEqual(ref.result.messages);
        const records = got.result.compactions ?? [];
        expect(got.model.requests).toHaveLength(ref.model.requests.length);
        got.model.requests.forEach((request, i) => {
          const original = (ref.model.requests[i] as ModelRequest).messages;
          const made = records.filter((c) => c.turn <= i);
          expectRequestInvariants(request.messages, original, made, options.turns);
        });
        const lengths = ref.model.requests.map((r) => r.messages.length - 1);
        expectRecordInvariants(records, lengths);
        // The view rebuilt from the evidence is the last request.
        const last = got.model.lastRequest as ModelRequest;
        const upToLast = (ref.model.lastRequest as ModelRequest).messages;
        expect(contextView(upToLast, records).messages).toEqual(last.messages);
        // A summariser's calls are part of the run's (even one whose summary was not applied).
        expect(got.result.requests).toBe(ref.result.requests + summary.calls);
        expect(records.filter((c) => c.usage !== undefined).length).toBeLessThanOrEqual(
          summary.calls,
        );
        if (records.length > 0) compacted++;
      },
    ),
    { numRuns: 50, seed: 2902 }, // a fixed seed: the coverage check below is reproducible
  );
  expect(compacted).toBeGreaterThan(5);
});

/** A conversation of several runs, each continuing the last (`history` and `compactions`). */
async function chain(
  prompts: readonly string[],
  steps: readonly Step[],
  compaction: CompactionOptions | undefined,
): Promise<{ model: FunctionModel; last: Result<string>; made: Compaction[][] }> {
  ids = 10_000;
  const model = scriptedAgentModel(steps);
  const agent = new Agent({
    model,
    instructions: INSTRUCTIONS,
    tools: [lookup],
    maxIterations: 100,
    ...(compaction !== undefined && { compaction }),
  });
  const made: Compaction[][] = [];
  let last: Result<string> | undefined;
  for (const prompt of prompts) {
    const so: Compaction[] = [...(last?.compactions ?? [])];
    last = await agent.run(prompt, {
      ...(last !== undefined && { history: last.messages, compactions: last.compactions ?? [] }),
      observer: (event) => {
        if (event.kind === 'compaction') so.push(event.compaction);
        if (event.kind === 'model_start') made.push([...so]);
      },
    });
  }
  if (last === undefined) throw new Error('no prompt');
  return { model, last, made };
}

test('a conversation of runs continued with their compactions keeps every invariant', async () => {
  let compacted = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.string({ minLength: 1, maxLength: 300 }), { minLength: 1, maxLength: 10 }),
      fc.array(stepArb, { maxLength: 20 }),
      optionsArb,
      async (prompts, steps, options) => {
        // Every run's first step answers (no calls) so each run ends; calls happen in between.
        const script = steps.flatMap((s) => [s, { ...s, calls: [] }]);
        const ref = await chain(prompts, script, undefined);
        const summary = summariser();
        const got = await chain(prompts, script, compactionOf(options, summary));
        expect(got.last.messages).toEqual(ref.last.messages);
        expect(got.model.requests).toHaveLength(ref.model.requests.length);
        got.model.requests.forEach((request, i) => {
          const original = (ref.model.requests[i] as ModelRequest).messages;
          expectRequestInvariants(request.messages, original, got.made[i] ?? [], options.turns);
        });
        const records = got.last.compactions ?? [];
        const length = got.last.messages.length - 1;
        for (const c of records) expect(c.to).toBeLessThanOrEqual(length);
        // The state round trip reads the same records back.
        const state = JSON.parse(JSON.stringify(got.last.state)) as { compactions?: unknown[] };
        expect(readCompactions(state.compactions, length)).toEqual(records);
        if (records.length > 0) compacted++;
      },
    ),
    { numRuns: 40, seed: 2903 }, // a fixed seed: reproducible
  );
  expect(compacted).toBeGreaterThan(5);
});
