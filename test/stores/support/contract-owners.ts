/**
 * The run-store contract, owners and agents: a stored run answers only to the agent that stored
 * it and, when it was started with an `owner`, to that owner — a refusal is indistinguishable from
 * an unknown id, nothing runs and the stored run is untouched. Registered by each adapter's suite.
 */
import {
  Agent,
  defineTool,
  listRuns,
  loadConversation,
  loadRun,
  RunInputError,
  StoreError,
} from 'golem';
import type { RunStore } from 'golem';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { FakeClock } from './scenario';
import type { StoreFactory } from './contract-runs';

/** An agent whose `transfer` tool needs approval; `calls` records every execution. */
function payer(store: RunStore, name: string, calls: string[]) {
  let modelCalls = 0;
  const agent = new Agent({
    name,
    store,
    deferredTools: true,
    model: new FunctionModel((r) => {
      modelCalls++;
      return r.messages.some((m) => m.role === 'tool')
        ? textResponse('paid')
        : toolCallResponse([{ id: 't1', name: 'transfer', args: { to: 'x' } }]);
    }),
    tools: [
      defineTool({
        name: 'transfer',
        schema: { type: 'object' },
        approval: true,
        execute: (args, ctx) => {
          calls.push(`${name}:${ctx.callId}:${JSON.stringify(args)}:${String(ctx.approved)}`);
          return 'sent';
        },
      }),
    ],
  });
  return { agent, modelCalls: () => modelCalls };
}

async function refusal(promise: Promise<unknown>): Promise<StoreError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!StoreError.is(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return error;
}

export function ownersContract(name: string, factory: StoreFactory): void {
  describe(`${name}: run owners and agents`, () => {
    let store: RunStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await factory(new FakeClock()));
    });
    afterEach(async () => {
      await cleanup();
    });

    test('another agent cannot resume or continue a run: not-found, nothing runs, the run untouched', async () => {
      const calls: string[] = [];
      const a = payer(store, 'billing', calls);
      const paused = await a.agent.run('pay');
      const runId = paused.runId ?? '';
      const before = await loadRun(store, runId);
      const b = payer(store, 'support', calls);
      const resumed = await refusal(
        b.agent.resume(runId, { approvals: { t1: { approved: true } } }),
      );
      const unknown = await refusal(b.agent.resume('no-such-run', { approvals: {} }));
      expect(resumed.reason).toBe('not-found');
      // The same words as for an id that does not exist, the id aside: no existence oracle.
      expect(resumed.message.replace(runId, 'ID')).toBe(
        unknown.message.replace('no-such-run', 'ID'),
      );
      expect(resumed.message).not.toContain('billing');
      expect((await refusal(b.agent.resumeRun(runId))).reason).toBe('not-found');
      expect(calls).toEqual([]);
      expect(b.modelCalls()).toBe(0);
      expect(await loadRun(store, runId)).toEqual(before);
      // Its own agent still can.
      const done = await payer(store, 'billing', calls).agent.resume(runId, {
        approvals: { t1: { approved: true } },
      });
      expect(done.output).toBe('paid');
      expect(calls).toEqual(['billing:t1:{"to":"x"}:true']);
    });

    test('an owner sees only its own runs: resume, resumeRun, loadRun and listRuns', async () => {
      const calls: string[] = [];
      const { agent } = payer(store, 'billing', calls);
      const alice = await agent.run('pay', { owner: 'alice' });
      const bob = await agent.run('pay', { owner: 'bob' });
      const none = await agent.run('pay');
      const runId = alice.runId ?? '';
      expect((await loadRun(store, runId)).owner).toBe('alice');
      const before = await loadRun(store, runId);
      const approve = { approvals: { t1: { approved: true } } };
      const foreign = await refusal(agent.resume(runId, approve, { owner: 'bob' }));
      const unknown = await refusal(agent.resume('no-such-run', approve, { owner: 'bob' }));
      expect(foreign.reason).toBe('not-found');
      expect(foreign.message.replace(runId, 'ID')).toBe(
        unknown.message.replace('no-such-run', 'ID'),
      );
      expect((await refusal(agent.resumeRun(runId, { owner: 'bob' }))).reason).toBe('not-found');
      // A run stored without an owner is no owner's.
      expect(
        (await refusal(agent.resume(none.runId ?? '', approve, { owner: 'bob' }))).reason,
      ).toBe('not-found');
      expect((await refusal(loadRun(store, runId, { owner: 'bob' }))).reason).toBe('not-found');
      expect(calls).toEqual([]);
      expect(await loadRun(store, runId)).toEqual(before);
      expect((await listRuns(store, { owner: 'bob' })).map((r) => r.id)).toEqual([bob.runId]);
      expect((await listRuns(store, { status: ['paused'] })).length).toBe(3); // unscoped: all
      expect((await loadRun(store, runId, { owner: 'alice' })).status).toBe('paused');
      const done = await agent.resume(runId, approve, { owner: 'alice' });
      expect(done.output).toBe('paid');
      expect(calls).toEqual(['billing:t1:{"to":"x"}:true']);
    });

    test("a conversation keeps its creator's owner; another owner's run on it is refused before anything runs", async () => {
      const calls: string[] = [];
      const { agent, modelCalls } = payer(store, 'billing', calls);
      const first = await agent.run('pay', { owner: 'alice', conversation: 'c-1' });
      await agent.resume(
        first.runId ?? '',
        { approvals: { t1: { approved: false } } },
        {
          owner: 'alice',
        },
      );
      const stored = await loadConversation(store, 'c-1', { owner: 'alice' });
      expect(stored?.owner).toBe('alice');
      expect(await loadConversation(store, 'c-1', { owner: 'bob' })).toBeUndefined();
      const models = modelCalls();
      const error = await refusal(agent.run('read it', { owner: 'bob', conversation: 'c-1' }));
      expect(error.reason).toBe('not-found');
      expect(error.conversationId).toBe('c-1');
      expect(modelCalls()).toBe(models);
      expect((await listRuns(store, { conversationId: 'c-1' })).length).toBe(1);
      // The owner continues it.
      const again = await agent.run('again', { owner: 'alice', conversation: 'c-1' });
      expect(again.output).toBe('paid');
    });

    test('owner needs a store and is a key: bad values are input errors before anything runs', async () => {
      const calls: string[] = [];
      const { agent, modelCalls } = payer(store, 'billing', calls);
      for (const owner of ['', 'a\nb', 'x'.repeat(201), 7 as unknown as string])
        await expect(agent.run('pay', { owner })).rejects.toThrow(RunInputError);
      await expect(loadRun(store, 'r', { owner: '' })).rejects.toThrow(RunInputError);
      const bare = new Agent({ model: new FunctionModel(() => textResponse('hi')) });
      await expect(bare.run('hi', { owner: 'alice' })).rejects.toThrow(/need a run store/);
      expect(modelCalls()).toBe(0);
      expect(await listRuns(store)).toEqual([]);
    });
  });
}
