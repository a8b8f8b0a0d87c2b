/**
 * The run-store contract, cache points: a message's `cachePoint: true` (a prompt-cache
 * breakpoint, issue 17) survives every store — in a run's checkpoint (a paused run resumed by
 * another agent sends it again) and in a stored conversation (the next run on it sends it, and
 * the conversation keeps it). Registered by each adapter's suite.
 */
import { Agent, defineTool, encodeMessages, loadConversation, loadRun } from 'golem';
import type { Message, ModelRequest, RunStore } from 'golem';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import type { StoreFactory } from './contract-runs';
import { FakeClock } from './scenario';

/** `role: content` of each message marked `cachePoint: true`. */
function markedText(messages: readonly Message[]): string[] {
  return messages.filter((m) => m.cachePoint === true).map((m) => `${m.role}: ${m.content ?? ''}`);
}

const history: Message[] = [
  { role: 'user', content: 'The handbook: …', cachePoint: true },
  { role: 'assistant', content: 'Read it.' },
];

export function cachePointsContract(name: string, factory: StoreFactory): void {
  describe(`${name}: cache points`, () => {
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

    test('a paused run keeps its cache points; the agent resuming it sends them again', async () => {
      const requests: ModelRequest[] = [];
      const model = () =>
        new FunctionModel((request) => {
          requests.push(request);
          return request.messages.some((m) => m.role === 'tool')
            ? textResponse('20 days.')
            : toolCallResponse([{ id: 'ask1', name: 'ask_hr', args: {} }]);
        });
      const tools = () => [
        defineTool({
          name: 'ask_hr',
          schema: { type: 'object' },
          approval: true,
          execute: () => '20 days',
        }),
      ];
      const one = new Agent({ model: model(), tools: tools(), deferredTools: true, store });
      const paused = await one.run('How many days of leave?', { history });
      expect(paused.pending?.approvals.map((p) => p.callId)).toEqual(['ask1']);
      expect(markedText(requests[0]?.messages ?? [])).toEqual(['user: The handbook: …']);
      const stored = await loadRun(store, paused.runId ?? '');
      expect(markedText(stored.messages)).toEqual(['user: The handbook: …']);
      expect(stored.messages.filter((m) => Object.hasOwn(m, 'cachePoint'))).toHaveLength(1);

      // "Another process": a new agent on the same store resumes from the stored checkpoint.
      const two = new Agent({ model: model(), tools: tools(), deferredTools: true, store });
      const done = await two.resume(paused.runId ?? '', {
        approvals: { ask1: { approved: true } },
      });
      expect(done.output).toBe('20 days.');
      expect(requests).toHaveLength(2);
      expect(markedText(requests[1]?.messages ?? [])).toEqual(['user: The handbook: …']);
      expect(markedText((await loadRun(store, paused.runId ?? '')).messages)).toEqual([
        'user: The handbook: …',
      ]);
    });

    test('a stored conversation keeps its cache points, and the next run on it sends them', async () => {
      const now = clock.now();
      await store.transaction((tx) =>
        tx.putConversation({
          id: 'handbook-chat',
          messages: encodeMessages(history),
          activeRunId: null,
          version: 1,
          createdAt: now,
          updatedAt: now,
        }),
      );
      const requests: ModelRequest[] = [];
      const agent = new Agent({
        model: new FunctionModel((request) => {
          requests.push(request);
          return textResponse('20 days.');
        }),
        store,
      });
      await agent.run('How many days of leave?', { conversation: 'handbook-chat' });
      expect(markedText(requests[0]?.messages ?? [])).toEqual(['user: The handbook: …']);
      const conversation = await loadConversation(store, 'handbook-chat');
      expect(conversation?.messages.map((m) => `${m.role}: ${m.content ?? ''}`)).toEqual([
        'user: The handbook: …',
        'assistant: Read it.',
        'user: How many days of leave?',
        'assistant: 20 days.',
      ]);
      expect(markedText(conversation?.messages ?? [])).toEqual(['user: The handbook: …']);
      // A second run reads the conversation golem wrote back; its checkpoint keeps the marker too.
      const second = await agent.run('And sick days?', { conversation: 'handbook-chat' });
      expect(markedText(requests[1]?.messages ?? [])).toEqual(['user: The handbook: …']);
      const run = await loadRun(store, second.runId ?? '');
      expect(markedText(run.messages)).toEqual(['user: The handbook: …']);
    });
  });
}
