/**
 * The run-store contract, part 2: runs interrupted mid-way ("the process died": a model call or
 * a tool that never returns), continued by a fresh agent on the same store once the lease
 * expired; leases and conflicts between concurrent continuations.
 */
import { Agent, INTERRUPTED_CALL_REASON, loadRun, StoreError } from 'golem';
import type { RunStore } from 'golem';
import type { StoreFactory } from './contract-runs';
import {
  FakeClock,
  forever,
  gate,
  resultsPerCall,
  scenarioModel,
  stepTool,
  transcript,
} from './scenario';

export function recoveryContract(name: string, factory: StoreFactory): void {
  describe(`${name}: interrupted runs`, () => {
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

    /** Starts the scenario with step `dieAt` never returning; resolves once it is stuck there. */
    async function dieInTool(
      dieAt: string,
      effects: string[],
      idempotent = false,
    ): Promise<string> {
      const stuck = gate();
      const step = stepTool(
        async (id) => {
          if (id === dieAt) {
            stuck.open();
            await forever();
          }
          effects.push(id);
        },
        { idempotent },
      );
      void new Agent({ model: scenarioModel(), tools: [step], store }).run('go', { runId: 'r' });
      await stuck.promise;
      return 'r';
    }

    test('a run cut mid-batch keeps completed results; the in-flight call pauses it for a decision', async () => {
      const effects: string[] = [];
      const runId = await dieInTool('a2', effects);
      clock.advance(store.leaseMs + 1);
      const fresh = () =>
        new Agent({
          model: scenarioModel(),
          tools: [stepTool((id, _n, approved) => void effects.push(`${id}${approved ? '+' : ''}`))],
          store,
          deferredTools: true,
        });
      const paused = await fresh().resumeRun(runId);
      expect(paused.pending).toEqual({
        approvals: [
          { callId: 'a2', toolName: 'step', args: '{"name":"B"}', reason: INTERRUPTED_CALL_REASON },
        ],
        external: [],
      });
      expect(effects).toEqual(['a1']); // a1 was not run again; a2 was not re-run blindly
      expect((await loadRun(store, runId)).status).toBe('paused');
      const done = await fresh().resume(runId, { approvals: { a2: { approved: true } } });
      expect(done.output).toBe('done');
      expect(effects).toEqual(['a1', 'a2+', 'c1']);
      expect(resultsPerCall(done.messages)).toEqual({ a1: 1, a2: 1, c1: 1 });
    });

    test('a denied or supplied in-flight call is not run', async () => {
      const effects: string[] = [];
      const runId = await dieInTool('a2', effects);
      clock.advance(store.leaseMs + 1);
      const agent = new Agent({
        model: scenarioModel(),
        tools: [stepTool((id) => void effects.push(id))],
        store,
      });
      await agent.resumeRun(runId);
      const done = await agent.resume(runId, { external: { a2: 'B was done by hand' } });
      expect(done.output).toBe('done');
      expect(effects).toEqual(['a1', 'c1']);
      expect(transcript(done.messages)).toContain('tool(a2): B was done by hand');
    });

    test('an idempotent in-flight call is re-run; calls that never started run once', async () => {
      const effects: string[] = [];
      const runId = await dieInTool('a1', effects, true);
      clock.advance(store.leaseMs + 1);
      const agent = new Agent({
        model: scenarioModel(),
        tools: [stepTool((id) => void effects.push(id), { idempotent: true })],
        store,
      });
      const done = await agent.resumeRun(runId);
      expect(done.output).toBe('done');
      expect(effects).toEqual(['a1', 'a2', 'c1']);
      expect(resultsPerCall(done.messages)).toEqual({ a1: 1, a2: 1, c1: 1 });
    });

    test('a run cut mid-model-call repeats that call only: no tool runs twice, no turn is lost', async () => {
      const effects: string[] = [];
      const calls: number[] = [];
      const stuck = gate();
      const dying = scenarioModel(async (request) => {
        const turn = request.messages.filter((m) => m.role === 'tool').length;
        calls.push(turn);
        if (turn === 2) {
          stuck.open();
          await forever();
        }
      });
      void new Agent({ model: dying, tools: [stepTool((id) => void effects.push(id))], store }).run(
        'go',
        { runId: 'm' },
      );
      await stuck.promise;
      clock.advance(store.leaseMs + 1);
      const model = scenarioModel(
        (request) => void calls.push(request.messages.filter((m) => m.role === 'tool').length),
      );
      const done = await new Agent({
        model,
        tools: [stepTool((id) => void effects.push(id))],
        store,
      }).resumeRun('m');
      expect(calls).toEqual([0, 2, 2, 3]);
      expect(effects).toEqual(['a1', 'a2', 'c1']);
      expect(transcript(done.messages)).toEqual([
        'user: go',
        'assistant[a1,a2]',
        'tool(a1): did A',
        'tool(a2): did B',
        'assistant[c1]',
        'tool(c1): did C',
        'assistant: done',
      ]);
    });

    test('a final answer committed before its decoding is decoded on resume, without a model call', async () => {
      const stuck = gate();
      let calls = 0;
      const hanging = new Agent({
        model: scenarioModel(() => {
          calls++;
        }),
        tools: [stepTool(() => undefined)],
        store,
        output: async (response) => {
          stuck.open();
          await forever();
          return response.message.content ?? '';
        },
      });
      void hanging.run('go', { runId: 'd' });
      await stuck.promise;
      clock.advance(store.leaseMs + 1);
      const agent = new Agent({
        model: scenarioModel(() => {
          calls++;
        }),
        tools: [stepTool(() => undefined)],
        store,
      });
      const done = await agent.resumeRun('d');
      expect(done.output).toBe('done');
      expect(calls).toBe(3);
    });

    test('a live lease refuses a second process; an expired one lets exactly one of two proceed', async () => {
      const effects: string[] = [];
      const runId = await dieInTool('a2', effects, true);
      const release = gate();
      const agent = () =>
        new Agent({
          model: scenarioModel(),
          tools: [
            stepTool(
              async (id) => {
                if (id === 'a2') await release.promise; // the winner holds the run here
                effects.push(id);
              },
              { idempotent: true },
            ),
          ],
          store,
        });
      const held: unknown = await agent()
        .resumeRun(runId)
        .catch((e: unknown) => e);
      expect(StoreError.isReason(held, 'conflict')).toBe(true);
      expect((held as StoreError).runId).toBe(runId);
      clock.advance(store.leaseMs + 1);
      const racers = [agent().resumeRun(runId), agent().resumeRun(runId)];
      // The winner waits at a2, so the first to settle is the loser.
      const first = await Promise.race(
        racers.map((p, index) =>
          p.then(
            () => ({ index, error: undefined as unknown }),
            (error: unknown) => ({ index, error }),
          ),
        ),
      );
      expect(StoreError.isReason(first.error, 'conflict')).toBe(true);
      release.open();
      const winner = await racers[1 - first.index];
      expect(winner?.output).toBe('done');
      expect(effects).toEqual(['a1', 'a2', 'c1']);
    });

    test('a process whose lease was taken over stops at its next checkpoint', async () => {
      const effects: string[] = [];
      const slow = gate();
      const stuck = gate();
      const step = stepTool(async (id) => {
        if (id === 'a2') {
          stuck.open();
          await slow.promise; // the "dead" process wakes up after its lease was taken over
        }
        effects.push(`old ${id}`);
      });
      const old = new Agent({ model: scenarioModel(), tools: [step], store }).run('go', {
        runId: 'z',
      });
      await stuck.promise;
      clock.advance(store.leaseMs + 1);
      const agent = new Agent({
        model: scenarioModel(),
        tools: [stepTool((id) => void effects.push(`new ${id}`), { idempotent: true })],
        store,
      });
      await agent.resumeRun('z');
      slow.open(undefined);
      const error: unknown = await old.catch((e: unknown) => e);
      expect(StoreError.isReason(error, 'conflict')).toBe(true);
      expect(effects).toEqual(['old a1', 'new a2', 'new c1', 'old a2']); // the old process ran nothing after a2
      expect((await loadRun(store, 'z')).status).toBe('completed');
    });

    test('resumeRun of a completed or unknown run is a typed error', async () => {
      const agent = new Agent({
        model: scenarioModel(),
        tools: [stepTool(() => undefined)],
        store,
      });
      const { runId } = await agent.run('go');
      const completed: unknown = await agent.resumeRun(runId ?? '').catch((e: unknown) => e);
      expect(StoreError.isReason(completed, 'invalid-state')).toBe(true);
      const missing: unknown = await agent.resumeRun('nope').catch((e: unknown) => e);
      expect(StoreError.isReason(missing, 'not-found')).toBe(true);
      expect((missing as Error).message).toBe('no stored run of agent "agent" has the id "nope"');
    });
  });
}
