/**
 * The run-store contract, part: a conversation's order. A failed run keeps the conversation it
 * started on as its base; once a newer run completed on that conversation, continuing the failed
 * run would append its answer after messages it never saw — so `resumeRun` refuses it, before
 * anything runs. Registered by each adapter's suite.
 */
import { Agent, loadConversation, loadRun, RunError, StoreError, trimHistory } from 'golem';
import type { ModelRequest, RunStore } from 'golem';
import { FunctionModel, textResponse } from 'golem/testing';
import type { StoreFactory } from './contract-runs';
import { FakeClock, transcript } from './scenario';

/** The text of the last user message of a request. */
function lastPrompt(request: ModelRequest): string {
  const users = request.messages.filter((m) => m.role === 'user');
  return users[users.length - 1]?.content ?? '';
}

export function conversationOrderContract(name: string, factory: StoreFactory): void {
  describe(`${name}: a conversation's order`, () => {
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

    /** An agent answering "re: <prompt>" that fails every model call while `down` holds. */
    function agentOn(down: { value: boolean }, asked: string[]) {
      const model = new FunctionModel((request) => {
        asked.push(lastPrompt(request));
        if (down.value) throw new Error('provider down');
        return textResponse(`re: ${lastPrompt(request)}`);
      });
      // A trimmed history: what the run sends differs from what the conversation holds.
      return new Agent({ model, store, historyProcessor: trimHistory(2) });
    }

    async function failedRun(agent: Agent, down: { value: boolean }, prompt: string) {
      down.value = true;
      const error: unknown = await agent
        .run(prompt, { conversation: 'c' })
        .catch((e: unknown) => e);
      down.value = false;
      expect(RunError.is(error)).toBe(true);
      return (error as RunError).runId ?? '';
    }

    test('resumeRun of a failed run continues on an unchanged conversation and is refused once a newer run completed on it', async () => {
      const down = { value: false };
      const asked: string[] = [];
      const agent = agentOn(down, asked);
      await agent.run('one', { conversation: 'c' });
      await agent.run('two', { conversation: 'c' });
      // Unchanged since the failure: the run continues and its messages follow the others.
      const first = await failedRun(agent, down, 'three');
      expect((await agent.resumeRun(first)).output).toBe('re: three');
      expect(transcript((await loadConversation(store, 'c'))?.messages ?? [])).toEqual([
        'user: one',
        'assistant: re: one',
        'user: two',
        'assistant: re: two',
        'user: three',
        'assistant: re: three',
      ]);
      // A run fails; a newer one completes on the conversation; the failed one is resumed.
      const stale = await failedRun(agent, down, 'four');
      await agent.run('five', { conversation: 'c' });
      const before = await loadRun(store, stale);
      const conversation = await loadConversation(store, 'c');
      asked.length = 0;
      clock.advance(1_000);
      const error: unknown = await agent.resumeRun(stale).catch((e: unknown) => e);
      expect(StoreError.isReason(error, 'conflict')).toBe(true);
      expect(error).toMatchObject({ runId: stale, conversationId: 'c' });
      const message = (error as Error).message;
      expect(message).toContain(`run "${stale}"`);
      expect(message).toContain('conversation "c" moved on since the run started');
      expect(message).toContain('start a new run on the conversation');
      expect(message).toContain(`loadRun(store, "${stale}")`);
      // Nothing ran and nothing changed: no model call, the run and the conversation as they were.
      expect(asked).toEqual([]);
      expect(await loadRun(store, stale)).toEqual(before);
      expect(await loadConversation(store, 'c')).toEqual(conversation);
      // The conversation is not held: the next run on it goes on, in order.
      expect((await agent.run('six', { conversation: 'c' })).output).toBe('re: six');
      expect(transcript((await loadConversation(store, 'c'))?.messages ?? []).slice(6)).toEqual([
        'user: five',
        'assistant: re: five',
        'user: six',
        'assistant: re: six',
      ]);
    });
  });
}
