/**
 * The run-store contract, part 1: what any store must do for runs that are not interrupted —
 * records, conversations, checkpoint granularity, pauses across "processes" (fresh agents on the
 * same store), failures. Registered by each adapter's suite.
 */
import {
  Agent,
  defineTool,
  listRuns,
  loadConversation,
  loadRun,
  RunError,
  RunInputError,
  StoreError,
} from 'golem';
import type { RunRecord, RunStore } from 'golem';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { FakeClock, resultsPerCall, scenarioModel, stepTool, transcript } from './scenario';

/** Builds a fresh, empty store on `clock`; `cleanup` removes what it made. */
export type StoreFactory = (
  clock: FakeClock,
) => Promise<{ store: RunStore; cleanup: () => Promise<void> }>;

export function runsContract(name: string, factory: StoreFactory): void {
  describe(`${name}: stored runs`, () => {
    let clock: FakeClock;
    let store: RunStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      clock = new FakeClock();
      ({ store, cleanup } = await factory(clock));
    });
    afterEach(async () => {
      await cleanup();
    });

    test('a completed run is stored with its messages, counters and a released lease', async () => {
      const effects: string[] = [];
      const agent = new Agent({
        model: scenarioModel(),
        tools: [stepTool((id) => void effects.push(id))],
        store,
        name: 'stepper',
      });
      const result = await agent.run('go');
      expect(result.output).toBe('done');
      expect(typeof result.runId).toBe('string');
      const record = await loadRun(store, result.runId ?? '');
      expect(record).toMatchObject({
        agent: 'stepper',
        status: 'completed',
        requests: 3,
        toolCalls: 3,
        turns: 3,
        inFlight: [],
        lease: undefined,
        error: undefined,
        pending: undefined,
        usage: { inputTokens: 10, outputTokens: 2 },
      });
      expect(record.messages).toEqual(result.messages);
      expect(effects).toEqual(['a1', 'a2', 'c1']);
    });

    test('every turn and every tool result is checkpointed before the next step starts', async () => {
      const seen: Record<string, RunRecord> = {};
      let runId = '';
      const model = scenarioModel(async (request) => {
        if (runId !== '')
          seen[`model@${request.messages.filter((m) => m.role === 'tool').length}`] = await loadRun(
            store,
            runId,
          );
      });
      const step = stepTool(async (id) => {
        seen[`tool ${id}`] = await loadRun(store, runId);
      });
      const agent = new Agent({ model, tools: [step], store });
      const result = await agent.run('go', {
        runId: 'run-1',
        observer: (e) => {
          if (e.kind === 'model_start') runId = 'run-1';
        },
      });
      expect(result.runId).toBe('run-1');
      expect(transcript(seen['tool a1']!.messages)).toEqual(['user: go', 'assistant[a1,a2]']);
      expect(seen['tool a1']!.inFlight).toEqual(['a1']);
      // a1's result is durable before a2 starts; a2 is recorded as in flight.
      expect(transcript(seen['tool a2']!.messages)).toEqual([
        'user: go',
        'assistant[a1,a2]',
        'tool(a1): did A',
      ]);
      expect(seen['tool a2']!.inFlight).toEqual(['a2']);
      expect(transcript(seen['model@2']!.messages)).toEqual([
        'user: go',
        'assistant[a1,a2]',
        'tool(a1): did A',
        'tool(a2): did B',
      ]);
      expect(seen['model@2']!.inFlight).toEqual([]);
      expect(seen['model@2']!).toMatchObject({ status: 'running', requests: 1, toolCalls: 2 });
      expect(seen['model@2']!.lease?.owner).toMatch(/\//);
    });

    test('parallel results are checkpointed as each call finishes, while the others still run', async () => {
      let seen: string[] = [];
      const step = stepTool(async (id) => {
        if (id !== 'a2') return;
        // a1 does not wait: its result must become durable while a2 is still running.
        for (let i = 0; i < 200 && !seen.includes('tool(a1): did A'); i++) {
          seen = transcript((await loadRun(store, 'p')).messages);
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
      const agent = new Agent({
        model: scenarioModel(),
        store,
        parallelToolCalls: true,
        tools: [step],
      });
      await agent.run('go', { runId: 'p' });
      expect(seen).toEqual(['user: go', 'assistant[a1,a2]', 'tool(a1): did A']);
    });

    test('a conversation continues by id and every completed run is appended to it', async () => {
      const first = new Agent({
        model: new ScriptedModel([textResponse('Lagos.')]),
        instructions: 'Be brief.',
        store,
      });
      await first.run('Largest city?', { conversation: 'chat-1' });
      const model = new ScriptedModel([textResponse('About 15 million.')]);
      const second = new Agent({ model, instructions: 'Be briefer.', store });
      const result = await second.run('Population?', { conversation: 'chat-1' });
      expect(transcript(model.lastRequest?.messages ?? [])).toEqual([
        'system: Be briefer.',
        'user: Largest city?',
        'assistant: Lagos.',
        'user: Population?',
      ]);
      expect(result.messages).toHaveLength(5);
      const conversation = await loadConversation(store, 'chat-1');
      expect(transcript(conversation?.messages ?? [])).toEqual([
        'user: Largest city?',
        'assistant: Lagos.',
        'user: Population?',
        'assistant: About 15 million.',
      ]);
      expect(conversation?.activeRunId).toBeUndefined();
      expect((await listRuns(store, { conversationId: 'chat-1' })).map((r) => r.status)).toEqual([
        'completed',
        'completed',
      ]);
    });

    test('conversation and runId need a store; conversation excludes history', async () => {
      const bare = new Agent({ model: new ScriptedModel([textResponse('x')]) });
      await expect(bare.run('hi', { conversation: 'c' })).rejects.toThrow(RunInputError);
      await expect(bare.resumeRun('r')).rejects.toThrow('resumeRun(runId) needs a run store');
      const agent = new Agent({ model: new ScriptedModel([textResponse('x')]), store });
      await expect(agent.run('hi', { conversation: 'c', history: [] })).rejects.toThrow(
        'pass either `history` or `conversation`',
      );
      await expect(agent.run('hi', { runId: 'has space' })).rejects.toThrow(
        'runId must be 1–200 printable ASCII',
      );
    });

    test('a run id is unique', async () => {
      const agent = new Agent({
        model: new ScriptedModel([textResponse('a'), textResponse('b')]),
        store,
      });
      await agent.run('one', { runId: 'same' });
      const error: unknown = await agent.run('two', { runId: 'same' }).catch((e: unknown) => e);
      expect(StoreError.isReason(error, 'conflict')).toBe(true);
      expect((error as StoreError).runId).toBe('same');
    });

    test('a paused run persists; any agent on the store lists it and resumes it with results', async () => {
      const transfers: string[] = [];
      const tools = () => [
        defineTool({
          name: 'transfer',
          schema: { type: 'object' },
          approval: true,
          execute: (_a, ctx) => {
            transfers.push(`${ctx.callId} approved=${String(ctx.approved)}`);
            return 'sent';
          },
        }),
      ];
      const script = () =>
        new FunctionModel((r) =>
          r.messages.some((m) => m.role === 'tool')
            ? textResponse('paid')
            : toolCallResponse([{ id: 't1', name: 'transfer', args: {} }]),
        );
      const one = new Agent({ model: script(), tools: tools(), deferredTools: true, store });
      const paused = await one.run('pay', { conversation: 'pay-chat' });
      expect(paused.pending?.approvals.map((p) => p.callId)).toEqual(['t1']);
      const listed = await listRuns(store, { status: ['paused'] });
      expect(listed.map((r) => [r.id, r.pending?.approvals[0]?.toolName])).toEqual([
        [paused.runId, 'transfer'],
      ]);
      expect((await loadRun(store, paused.runId ?? '')).lease).toBeUndefined();
      // "Another process": a new agent object, the same store.
      const two = new Agent({ model: script(), tools: tools(), deferredTools: true, store });
      const again = await two.resumeRun(paused.runId ?? '');
      expect(again.pending?.approvals.map((p) => p.callId)).toEqual(['t1']);
      await expect(
        two.resume(paused.runId ?? '', { approvals: { nope: { approved: true } } }),
      ).rejects.toThrow(RunInputError);
      expect((await loadRun(store, paused.runId ?? '')).status).toBe('paused');
      const done = await two.resume(paused.runId ?? '', { approvals: { t1: { approved: true } } });
      expect(done.output).toBe('paid');
      expect(done.runId).toBe(paused.runId);
      expect(transfers).toEqual(['t1 approved=true']);
      expect((await loadRun(store, paused.runId ?? '')).status).toBe('completed');
      expect(transcript((await loadConversation(store, 'pay-chat'))?.messages ?? [])).toEqual([
        'user: pay',
        'assistant[t1]',
        'tool(t1): sent',
        'assistant: paid',
      ]);
      const error: unknown = await two
        .resume(paused.runId ?? '', { approvals: { t1: { approved: true } } })
        .catch((e: unknown) => e);
      expect(StoreError.isReason(error, 'invalid-state')).toBe(true);
    });

    test('a conversation with an unfinished run refuses a second run', async () => {
      const agent = new Agent({
        model: new ScriptedModel([toolCallResponse([{ id: 'x', name: 'gate', args: {} }])]),
        tools: [
          defineTool({
            name: 'gate',
            schema: { type: 'object' },
            approval: true,
            execute: () => 'ok',
          }),
        ],
        deferredTools: true,
        store,
      });
      const paused = await agent.run('one', { conversation: 'busy' });
      const error: unknown = await agent
        .run('two', { conversation: 'busy' })
        .catch((e: unknown) => e);
      expect(StoreError.isReason(error, 'conflict')).toBe(true);
      expect((error as Error).message).toContain(`unfinished run "${paused.runId ?? ''}" (paused)`);
    });

    test('a failed run records its stage and message, and resumeRun continues it from its checkpoint', async () => {
      let fail = true;
      const effects: string[] = [];
      const model = scenarioModel((request) => {
        if (fail && request.messages.filter((m) => m.role === 'tool').length === 2)
          throw new Error('provider down');
      });
      const agent = new Agent({ model, tools: [stepTool((id) => void effects.push(id))], store });
      const error: unknown = await agent.run('go').catch((e: unknown) => e);
      expect(RunError.is(error)).toBe(true);
      const runId = (error as RunError).runId ?? '';
      expect(await loadRun(store, runId)).toMatchObject({
        status: 'failed',
        error: { stage: 'model', message: 'golem: model stage: provider down' },
        lease: undefined,
      });
      fail = false;
      const resumed = await agent.resumeRun(runId);
      expect(resumed.output).toBe('done');
      expect(effects).toEqual(['a1', 'a2', 'c1']);
      expect(Object.values(resultsPerCall(resumed.messages))).toEqual([1, 1, 1]);
      expect(resumed.requests).toBe(4); // the failed attempt counts, turn 1 was not repeated
    });

    test('streaming runs are checkpointed too', async () => {
      const agent = new Agent({ model: new ScriptedModel([textResponse('streamed')]), store });
      const stream = agent.runStream('hi', { runId: 's-1' });
      for await (const _delta of stream) {
        // drain
      }
      expect((await stream.result).runId).toBe('s-1');
      expect((await loadRun(store, 's-1')).status).toBe('completed');
    });
  });
}
