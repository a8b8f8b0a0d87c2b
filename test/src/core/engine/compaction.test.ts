import {
  Agent,
  RunError,
  RunInputError,
  defineTool,
  loadConversation,
  encodeMessage,
  priceTable,
  loadRun,
  type CompactionOptions,
  type CompactionPolicy,
  type Message,
  type ModelResponse,
  type RunEvent,
} from 'golem';
import { memoryStore } from 'golem/stores/memory';
import {
  FunctionModel,
  ScriptedModel,
  StreamFunctionModel,
  textResponse,
  toolCallResponse,
} from 'golem/testing';
import { SUMMARY_INSTRUCTIONS } from '../../../../src/core/engine/compaction-policies';
import { estimateTokens, messageCounter } from '../../../../src/core/engine/context-tokens';
import { contextView } from '../../../../src/core/engine/context-view';
import { configErrorOf } from '../../../support/config-error';
import { brief, eventOf } from '../../../support/run-events';

// Context compaction, behaviour by behaviour: configuration, token accounting, each policy, the
// evidence (result, partial, state), events, and provider-side compaction.

const count = messageCounter(estimateTokens);
const tokensOf = (messages: readonly Message[]): number =>
  messages.reduce((n, m) => n + count(m), 0);

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a term up.',
  schema: { type: 'object', properties: { term: { type: 'string' } } },
  execute: (args) => `${(args as { term: string }).term}: ${'data '.repeat(400)}`,
});

/** An earlier conversation: two questions, each answered after a big lookup (with thinking). */
function history(): Message[] {
  const messages: Message[] = [];
  for (const n of [1, 2]) {
    messages.push({ role: 'user', content: `Question ${n}?` });
    messages.push({
      role: 'assistant',
      thinking: [{ text: `secret reasoning ${n}`, signature: `sig-${n}`, provider: 'anthropic' }],
      toolCalls: [{ id: `h${n}`, name: 'lookup', args: `{"term":"t${n}"}` }],
    });
    messages.push({
      role: 'tool',
      toolCallId: `h${n}`,
      toolName: 'lookup',
      content: `t${n}: ${'data '.repeat(400)}`,
    });
    messages.push({ role: 'assistant', content: `Answer ${n}.` });
  }
  return messages;
}

function summariser(text = 'They asked two questions; both were answered.'): FunctionModel {
  return new FunctionModel(
    () => ({
      message: { role: 'assistant', content: text },
      usage: { inputTokens: 300, outputTokens: 20 },
      finishReason: 'stop',
    }),
    { name: 'cheap' },
  );
}

async function failure(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
  throw new Error('the run did not fail');
}

describe('configuration', () => {
  const model = new ScriptedModel([]);
  test.each<[string, unknown]>([
    ['maxTokens', { maxTokens: 0 }],
    ['maxTokens', { maxTokens: 1.5 }],
    ['targetTokens', { maxTokens: 100, targetTokens: 200 }],
    ['targetTokens', { maxTokens: 100, targetTokens: -1 }],
    ['keep.turns', { maxTokens: 100, keep: { turns: 0 } }],
    ['policies', { maxTokens: 100, policies: [] }],
    ['unknown policy "trim"', { maxTokens: 100, policies: ['trim'] }],
    ['custom policy', { maxTokens: 100, policies: [{ name: 'x' }] }],
    ['summary.model', { maxTokens: 100, summary: { model: {} } }],
    ['summary.maxTokens', { maxTokens: 100, summary: { maxTokens: 0 } }],
    ['countTokens', { maxTokens: 100, countTokens: 'chars' }],
    ['must be an object', 100],
  ])('a bad %s is a ConfigError of the agent naming it', (field, compaction) => {
    const make = () => new Agent({ model, compaction: compaction as CompactionOptions });
    expect(make).toThrow(configErrorOf('agent'));
    expect(make).toThrow(field);
  });

  test('a countTokens that returns a bad count fails the run at the model stage', async () => {
    const agent = new Agent({
      model: new ScriptedModel([textResponse('hi')]),
      compaction: { maxTokens: 100, countTokens: () => Number.NaN },
    });
    const error = await failure(agent.run('Hello'));
    expect(error.stage).toBe('model');
    expect(error.message).toMatch(/countTokens returned NaN/);
  });
});

describe('contextTokens', () => {
  test('the provider-reported usage anchors the estimate; later messages are estimated', async () => {
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: new ScriptedModel([
        toolCallResponse([{ id: 'c1', name: 'lookup', args: { term: 'golem' } }], {
          inputTokens: 1000,
          outputTokens: 50,
        }),
        textResponse('Done.', { inputTokens: 1600, outputTokens: 10 }),
      ]),
      instructions: 'Be brief.',
      tools: [lookup],
      compaction: { maxTokens: 100_000 },
      onEvent: (e) => void events.push(e),
    });
    const result = await agent.run('Look golem up.');
    const starts = events
      .filter((e) => e.kind === 'model_start')
      .map((e) => eventOf(e, 'model_start'));
    expect(starts.map((e) => e.contextTokens)).toEqual([
      tokensOf([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Look golem up.' },
      ]),
      1050 + count(result.messages[3] as Message),
    ]);
    expect(result.messages[3]?.role).toBe('tool');
    expect(result.contextTokens).toBe(starts[1]?.contextTokens);
    expect(result.compactions).toBeUndefined();
  });

  test('an observed run without compaction sees it on model_start; only compaction puts it on the result', async () => {
    const events: RunEvent[] = [];
    const observed = new Agent({
      model: new ScriptedModel([textResponse('hi')]),
      onEvent: (e) => void events.push(e),
    });
    const result = await observed.run('Hello');
    expect(eventOf(events[0], 'model_start').contextTokens).toBe(
      tokensOf([{ role: 'user', content: 'Hello' }]),
    );
    expect(result.contextTokens).toBeUndefined();
    const plain = new Agent({ model: new ScriptedModel([textResponse('hi')]) });
    expect((await plain.run('Hello')).contextTokens).toBeUndefined();
  });
});

describe('policies', () => {
  test('under the budget nothing is compacted', async () => {
    const model = new ScriptedModel([textResponse('Fine.')]);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model,
      compaction: { maxTokens: 100_000, summary: { model: summariser() } },
      onEvent: (e) => void events.push(e),
    });
    const result = await agent.run('And now?', { history: history() });
    expect(result.compactions).toBeUndefined();
    expect(events.some((e) => e.kind === 'compaction')).toBe(false);
    expect(model.lastRequest?.messages).toEqual([
      ...history(),
      { role: 'user', content: 'And now?' },
    ]);
  });

  test('clear-tool-results keeps the calls and replaces old results with a marker', async () => {
    const model = new ScriptedModel([textResponse('Fine.')]);
    const agent = new Agent({
      model,
      compaction: { maxTokens: 300, keep: { turns: 1 }, policies: ['clear-tool-results'] },
    });
    const result = await agent.run('And now?', { history: history() });
    const sent = model.lastRequest?.messages ?? [];
    expect(sent[1]).toEqual(history()[1]); // the call and its thinking, untouched
    expect(sent[2]).toEqual({
      role: 'tool',
      toolCallId: 'h1',
      toolName: 'lookup',
      content:
        '[tool result cleared to save context: lookup returned 2004 characters here; call it again if you need them]',
    });
    expect(sent[6]?.content).toMatch(/^\[tool result cleared/);
    expect(result.compactions).toEqual([
      expect.objectContaining({
        policy: 'clear-tool-results',
        from: 2,
        to: 7,
        turn: 0,
        cleared: ['h1', 'h2'],
        tokensAfter: tokensOf(sent),
      }),
    ]);
    expect(result.messages.slice(0, 8)).toEqual(history()); // the originals stay
  });

  test('clearing applies to the positions it names: a reused call id in the kept turns stays', async () => {
    // Call ids are not unique across a conversation with every provider (ids generated per request).
    const reused = history().map((m) =>
      m.toolCallId === 'h2'
        ? { ...m, toolCallId: 'h1' }
        : m.toolCalls?.[0]?.id === 'h2'
          ? { ...m, toolCalls: [{ ...m.toolCalls[0], id: 'h1' }] }
          : m,
    );
    const model = new ScriptedModel([textResponse('Fine.')]);
    const agent = new Agent({
      model,
      compaction: { maxTokens: 300, keep: { turns: 3 }, policies: ['clear-tool-results'] },
    });
    const result = await agent.run('And now?', { history: reused });
    expect(result.compactions?.[0]).toEqual(
      expect.objectContaining({ from: 2, to: 3, cleared: ['h1'] }),
    );
    const sent = model.lastRequest?.messages ?? [];
    expect(sent[2]?.content).toMatch(/^\[tool result cleared/);
    expect(sent.slice(4)).toEqual(result.messages.slice(4, sent.length));
    expect(sent[6]?.content).toMatch(/^t2: data/);
  });

  test('summarise uses summary.model on a transcript without thinking; its usage is the run’s', async () => {
    const model = new ScriptedModel([textResponse('Fine.', { inputTokens: 100, outputTokens: 5 })]);
    const cheap = summariser();
    const agent = new Agent({
      model,
      instructions: 'Be brief.',
      compaction: {
        maxTokens: 300,
        keep: { turns: 1 },
        policies: ['summarise'],
        summary: { model: cheap, maxTokens: 200 },
      },
    });
    const result = await agent.run('And now?', { history: history() });
    expect(model.lastRequest?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content:
          '<conversation_summary>\nThe earlier part of this conversation, summarised:\nThey asked two questions; both were answered.\n</conversation_summary>',
      },
      { role: 'user', content: 'And now?' },
    ]);
    const asked = cheap.lastRequest;
    expect(asked?.settings).toEqual({ maxTokens: 200 });
    expect(asked?.tools).toEqual([]);
    expect(asked?.messages[0]).toEqual({ role: 'system', content: SUMMARY_INSTRUCTIONS });
    const transcript = asked?.messages[1]?.content ?? '';
    expect(transcript).toContain('user: Question 1?');
    expect(transcript).toContain('[tool call lookup h1]: {"term":"t1"}');
    expect(transcript).toContain('assistant: Answer 2.');
    expect(transcript).not.toMatch(/secret reasoning|sig-/);
    expect(result.usage).toEqual({ inputTokens: 400, outputTokens: 25 });
    expect(result.requests).toBe(2);
    expect(result.compactions).toEqual([
      expect.objectContaining({
        policy: 'summarise',
        from: 0,
        to: 8,
        usage: { inputTokens: 300, outputTokens: 20 },
      }),
    ]);
  });

  test('without instructions the summary opens the request, and positions are the same', async () => {
    const model = new ScriptedModel([textResponse('Fine.')]);
    const agent = new Agent({
      model,
      compaction: {
        maxTokens: 300,
        keep: { turns: 1 },
        policies: ['summarise'],
        summary: { model: summariser() },
      },
    });
    const result = await agent.run('And now?', { history: history() });
    expect(model.lastRequest?.messages.map((m) => m.role)).toEqual(['user', 'user']);
    expect(model.lastRequest?.messages[0]?.content).toMatch(/^<conversation_summary>/);
    expect(result.compactions?.[0]).toEqual(expect.objectContaining({ from: 0, to: 8 }));
  });

  test('summarise without summary.model asks the agent’s model, with custom instructions', async () => {
    const model = new ScriptedModel([textResponse('A summary.'), textResponse('Fine.')]);
    const agent = new Agent({
      model,
      compaction: {
        maxTokens: 300,
        keep: { turns: 1 },
        policies: ['summarise'],
        summary: { instructions: 'Summarise tersely.' },
      },
    });
    await agent.run('And now?', { history: history() });
    expect(model.requests[0]?.messages[0]).toEqual({
      role: 'system',
      content: 'Summarise tersely.',
    });
    expect(model.requests[1]?.messages[0]?.content).toContain('A summary.');
  });

  test('policies stop once the context is under the target', async () => {
    const cheap = summariser();
    const model = new ScriptedModel([textResponse('Fine.')]);
    const agent = new Agent({
      model,
      compaction: { maxTokens: 600, keep: { turns: 1 }, summary: { model: cheap } },
    });
    const result = await agent.run('And now?', { history: history() });
    expect(result.compactions?.map((c) => c.policy)).toEqual(['clear-tool-results']);
    expect(cheap.calls).toBe(0);
  });

  test('when clearing is not enough the next policy runs', async () => {
    const cheap = summariser();
    const agent = new Agent({
      model: new ScriptedModel([textResponse('Fine.')]),
      compaction: { maxTokens: 120, keep: { turns: 1 }, summary: { model: cheap } },
    });
    const result = await agent.run('And now?', { history: history() });
    expect(result.compactions?.map((c) => c.policy)).toEqual(['clear-tool-results', 'summarise']);
    expect(cheap.calls).toBe(1);
  });

  test('a failing summariser fails the run at the model stage; the partial keeps earlier records', async () => {
    let calls = 0;
    const flaky = new FunctionModel(() => {
      calls++;
      if (calls > 1) throw new Error('summariser quota exhausted');
      return textResponse('Looked things up.', { inputTokens: 50, outputTokens: 5 });
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'lookup', args: { term: 'a' } }]),
      toolCallResponse([{ id: 'c2', name: 'lookup', args: { term: 'b' } }]),
      toolCallResponse([{ id: 'c3', name: 'lookup', args: { term: 'c' } }]),
      textResponse('Done.'),
    ]);
    const agent = new Agent({
      model,
      tools: [lookup],
      compaction: {
        maxTokens: 700,
        keep: { turns: 1 },
        policies: ['summarise'],
        summary: { model: flaky },
      },
    });
    const error = await failure(agent.run('Look three things up.'));
    expect(error.stage).toBe('model');
    expect(error.cause).toEqual(new Error('summariser quota exhausted'));
    expect(error.partial?.compactions).toEqual([
      expect.objectContaining({ policy: 'summarise', turn: 2, from: 0, to: 3 }),
    ]);
    // The third lookup ran; the summary before the fourth model call failed.
    expect(error.partial?.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
    expect(model.calls).toBe(3);
  });

  test('a compaction before a failing first model call is kept in the partial evidence', async () => {
    const cheap = new FunctionModel(() => {
      throw new Error('summariser down');
    });
    const agent = new Agent({
      model: new ScriptedModel([textResponse('never')]),
      compaction: {
        maxTokens: 300,
        targetTokens: 10, // clearing alone cannot reach it: the summariser is asked next
        keep: { turns: 1 },
        policies: ['clear-tool-results', 'summarise'],
        summary: { model: cheap },
      },
    });
    const error = await failure(agent.run('And now?', { history: history() }));
    expect(error.stage).toBe('model');
    // Nothing was answered, yet the clearing this run did is evidence.
    expect(error.partial?.compactions).toEqual([
      expect.objectContaining({ policy: 'clear-tool-results', cleared: ['h1', 'h2'] }),
    ]);
  });

  test('the summariser’s call is priced with the run’s prices', async () => {
    const model = new ScriptedModel([textResponse('Fine.', { inputTokens: 100, outputTokens: 5 })]);
    const agent = new Agent({
      model,
      prices: priceTable({ main: { input: 1, output: 1 }, cheap: { input: 10, output: 10 } }),
      compaction: {
        maxTokens: 300,
        keep: { turns: 1 },
        policies: ['summarise'],
        summary: { model: summariser() },
      },
    });
    const result = await agent.run('And now?', { history: history() });
    // The scripted model has no priced name: only the summariser's 300 + 20 tokens are priced.
    expect(result.cost?.total).toBeCloseTo((320 * 10) / 1e6, 10);
    expect(result.cost?.unpriced).toBe(1);
  });

  test('a custom policy’s broken replacement fails the run with a clear message', async () => {
    const broken: CompactionPolicy = {
      name: 'broken',
      compact: () =>
        Promise.resolve({
          replacement: [{ role: 'tool', toolCallId: 'ghost', content: 'orphan' }],
        }),
    };
    const agent = new Agent({
      model: new ScriptedModel([textResponse('Fine.')]),
      compaction: { maxTokens: 100, policies: [broken] },
    });
    const error = await failure(agent.run('And now?', { history: history() }));
    expect(error.stage).toBe('model');
    expect((error.cause as Error).message).toMatch(
      /compaction policy "broken" returned a tool result without its call/,
    );
  });

  test('a custom policy sees the context, and its thinking blocks are dropped', async () => {
    const seen: { keepFrom: number; first?: string; target: number }[] = [];
    const custom: CompactionPolicy = {
      name: 'drop-old',
      compact(input) {
        seen.push({
          keepFrom: input.keepFrom,
          first: input.messages[0]?.role,
          target: input.targetTokens,
        });
        return Promise.resolve({
          replacement: [
            { role: 'user', content: 'Earlier: two questions.' },
            {
              role: 'assistant',
              content: 'Noted.',
              thinking: [{ text: 'forged', signature: 'x' }],
            },
          ],
        });
      },
    };
    const model = new ScriptedModel([textResponse('Fine.')]);
    const agent = new Agent({
      model,
      instructions: 'Be brief.',
      compaction: { maxTokens: 300, targetTokens: 100, keep: { turns: 1 }, policies: [custom] },
    });
    const result = await agent.run('And now?', { history: history() });
    expect(seen).toEqual([{ keepFrom: 9, first: 'system', target: 100 }]);
    expect(model.lastRequest?.messages.slice(1)).toEqual([
      { role: 'user', content: 'Earlier: two questions.' },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: 'And now?' },
    ]);
    expect(result.compactions?.[0]).toEqual(
      expect.objectContaining({ policy: 'drop-old', from: 0, to: 8 }),
    );
  });
});

describe('events and provider compaction', () => {
  test('a compaction event comes right before the model_start it precedes', async () => {
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: new ScriptedModel([textResponse('Fine.')]),
      compaction: { maxTokens: 300, keep: { turns: 1 }, policies: ['clear-tool-results'] },
      onEvent: (e) => void events.push(e),
    });
    const result = await agent.run('And now?', { history: history() });
    const kinds = events.map(brief);
    const at = kinds.indexOf('compaction t0');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(kinds[at + 1]).toBe('model_start t0 a1');
    expect(eventOf(events[at], 'compaction').compaction).toEqual(result.compactions?.[0]);
    expect(eventOf(events[at + 1], 'model_start').contextTokens).toBe(
      result.compactions?.[0]?.tokensAfter,
    );
  });

  test('provider: requests ask for it; reported edits become a provider record and event', async () => {
    const edited: ModelResponse = {
      ...textResponse('Fine.', { inputTokens: 800, outputTokens: 5 }),
      contextEdits: [
        {
          kind: 'cleared-tool-uses',
          type: 'clear_tool_uses_20250919',
          clearedToolUses: 2,
          clearedInputTokens: 900,
        },
      ],
    };
    const model = new ScriptedModel([edited]);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model,
      compaction: { maxTokens: 5000, policies: ['provider'] },
      onEvent: (e) => void events.push(e),
    });
    const result = await agent.run('And now?', { history: history() });
    expect(model.lastRequest?.settings?.compaction).toEqual({ triggerTokens: 5000 });
    const record = {
      policy: 'provider',
      from: 0,
      to: 9,
      turn: 0,
      tokensBefore: tokensOf([...history(), { role: 'user', content: 'And now?' }]),
      tokensAfter: 800,
      edits: edited.contextEdits,
    };
    expect(result.compactions).toEqual([record]);
    expect(events.filter((e) => e.kind === 'compaction')).toEqual([
      { kind: 'compaction', turn: 0, compaction: record },
    ]);
    // The originals are what the next run sends: the provider compacts on its side.
    expect(result.messages.slice(0, 8)).toEqual(history());
  });

  test('provider: settings.compaction given by the caller wins', async () => {
    const model = new ScriptedModel([textResponse('Fine.')]);
    const agent = new Agent({
      model,
      modelSettings: { compaction: { triggerTokens: 10, keepToolUses: 1 } },
      compaction: { maxTokens: 5000, policies: ['provider'] },
    });
    await agent.run('Hi');
    expect(model.lastRequest?.settings?.compaction).toEqual({ triggerTokens: 10, keepToolUses: 1 });
  });
});

describe('state', () => {
  const approved = defineTool({
    name: 'publish',
    description: 'Publishes.',
    schema: { type: 'object', properties: {} },
    approval: true,
    execute: () => 'published',
  });

  function pausingAgent(model: ScriptedModel) {
    return new Agent({
      model,
      tools: [approved],
      deferredTools: true,
      compaction: { maxTokens: 300, keep: { turns: 1 }, policies: ['clear-tool-results'] },
    });
  }

  test('a state round trip keeps the records and rebuilds the same context', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'p1', name: 'publish' }]),
      textResponse('Published.'),
    ]);
    const agent = pausingAgent(model);
    const paused = await agent.run('Publish it.', { history: history() });
    expect(paused.pending?.approvals.map((a) => a.callId)).toEqual(['p1']);
    expect(paused.compactions).toHaveLength(1);
    const state = JSON.parse(JSON.stringify(paused.state)) as typeof paused.state;
    const done = await agent.resume(state, { approvals: { p1: { approved: true } } });
    expect(done.compactions?.slice(0, 1)).toEqual(paused.compactions);
    const last = model.lastRequest?.messages ?? [];
    expect(last).toEqual(
      contextView(done.messages.slice(0, last.length), done.compactions ?? []).messages,
    );
    expect(last[2]?.content).toMatch(/^\[tool result cleared/);
    expect(done.messages.slice(0, 8)).toEqual(history());
  });

  test('a run given compactions that do not fit its history is refused', async () => {
    const agent = new Agent({
      model: new ScriptedModel([textResponse('x')]),
      compaction: { maxTokens: 300 },
    });
    const compactions = [
      {
        policy: 'clear-tool-results',
        from: 2,
        to: 40,
        turn: 0,
        tokensBefore: 9,
        tokensAfter: 1,
        cleared: ['h1'],
      },
    ];
    await expect(agent.run('Hi', { history: history(), compactions })).rejects.toThrow(
      RunInputError,
    );
    await expect(agent.run('Hi', { history: history(), compactions })).rejects.toThrow(
      /compactions do not fit the history/,
    );
  });

  test('with a historyProcessor, given compactions are refused and a conversation’s are not reused', async () => {
    const agent = new Agent({
      model: new ScriptedModel([textResponse('a'), textResponse('b')]),
      historyProcessor: (h) => h.slice(-4),
      compaction: { maxTokens: 100_000 },
    });
    const compactions = [
      {
        policy: 'clear-tool-results',
        from: 0,
        to: 3,
        turn: 0,
        tokensBefore: 9,
        tokensAfter: 1,
        cleared: ['h1'],
      },
    ];
    const refused = await agent
      .run('x', { history: history(), compactions })
      .catch((e: unknown) => e);
    expect(RunInputError.is(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/historyProcessor/);
    const store = memoryStore();
    const stored = new Agent({
      model: new ScriptedModel([textResponse('a')]),
      store,
      historyProcessor: (h) => h.slice(-4),
      compaction: { maxTokens: 100_000 },
    });
    const conversation = 'thread-p';
    await store.transaction(async (tx) => {
      await tx.putConversation({
        id: conversation,
        messages: JSON.stringify(history().map((m) => JSON.parse(encodeMessage(m)) as unknown)),
        activeRunId: null,
        version: 1,
        createdAt: 1,
        updatedAt: 1,
        compactions: JSON.stringify(compactions),
      });
    });
    const result = await stored.run('y', { conversation });
    expect(result.compactions).toBeUndefined();
  });

  test('a tampered state with a compaction out of range is refused', async () => {
    const agent = pausingAgent(
      new ScriptedModel([toolCallResponse([{ id: 'p1', name: 'publish' }]), textResponse('x')]),
    );
    const paused = await agent.run('Publish it.', { history: history() });
    const state = JSON.parse(JSON.stringify(paused.state)) as { compactions: { to: number }[] };
    (state.compactions[0] as { to: number }).to = 999;
    await expect(
      agent.resume(state as unknown as typeof paused.state, {
        approvals: { p1: { approved: true } },
      }),
    ).rejects.toThrow(RunInputError);
    await expect(
      agent.resume(state as unknown as typeof paused.state, {
        approvals: { p1: { approved: true } },
      }),
    ).rejects.toThrow(/compactions\[0\] covers 2…999/);
  });
});

describe('stored conversations and streaming', () => {
  test('a stored conversation keeps the originals and hands its compactions to the next run', async () => {
    const store = memoryStore();
    const cheap = summariser();
    const model = new FunctionModel(() => textResponse(`An answer. ${'words '.repeat(80)}`));
    const agent = new Agent({
      name: 'tutor',
      model,
      instructions: 'Be brief.',
      store,
      compaction: {
        maxTokens: 400,
        keep: { turns: 2 },
        policies: ['summarise'],
        summary: { model: cheap },
      },
    });
    const results = [];
    for (const n of [1, 2, 3, 4, 5])
      results.push(await agent.run(`Question ${n}: ${'why '.repeat(60)}`, { conversation: 'c1' }));
    const last = results[results.length - 1];
    const conversation = await loadConversation(store, 'c1');
    expect(conversation?.messages).toEqual(last?.messages.slice(1));
    expect(conversation?.messages.filter((m) => m.role === 'user')).toHaveLength(5);
    expect(conversation?.compactions).toEqual(last?.compactions);
    const run = await loadRun(store, last?.runId ?? '');
    expect(run.compactions).toEqual(last?.compactions);
    // Each run started from the stored records: one summary per compaction, none redone.
    expect(last?.compactions?.length).toBeGreaterThan(1);
    expect(cheap.calls).toBe(last?.compactions?.length);
    const sent = model.lastRequest?.messages ?? [];
    expect(sent).toEqual(
      contextView(last?.messages.slice(0, -1) ?? [], last?.compactions ?? []).messages,
    );
  });

  test('a streamed run is compacted the same way', async () => {
    const model = new StreamFunctionModel(async (_request, emit) => {
      await emit({ content: 'Fine.' });
      return textResponse('Fine.');
    });
    const agent = new Agent({
      model,
      compaction: { maxTokens: 300, keep: { turns: 1 }, policies: ['clear-tool-results'] },
    });
    const stream = agent.runStream('And now?', { history: history() });
    const result = await stream.result;
    expect(result.compactions?.map((c) => c.policy)).toEqual(['clear-tool-results']);
    expect(model.lastRequest?.messages[2]?.content).toMatch(/^\[tool result cleared/);
  });
});
