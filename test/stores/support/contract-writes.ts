/**
 * The run-store contract, part 3: how golem writes — which writes may skip the disk flush (the
 * run's start and a final answer, each always followed by a flushed write before any tool runs),
 * which must wait for it (every write-ahead record, every tool result, the run's end), and the
 * one-statement start through `insertRun`. Registered by each adapter's suite.
 */
import { Agent, loadRun } from 'golem';
import type { RunStore, StoredRun, WriteOptions } from 'golem';
import { FakeClock, scenarioModel, stepTool, transcript } from './scenario';

/** Builds a fresh, empty store on `clock`; `cleanup` removes what it made. */
export type WritesStoreFactory = (
  clock: FakeClock,
) => Promise<{ store: RunStore; cleanup: () => Promise<void> }>;

/** One write as the store saw it: what, and whether it had to be flushed. */
type Write = string;

/** `store`, recording its writes: `insert`, `replace <status> [in flight]`, `tx`; `~` = not flushed. */
function recording(store: RunStore, writes: Write[]): RunStore {
  const mark = (options?: WriteOptions) => (options?.flush === false ? '~' : '');
  const flight = (run: StoredRun) => (run.inFlight === null ? '' : ` ${run.inFlight}`);
  return {
    leaseMs: store.leaseMs,
    now: () => store.now(),
    migrate: () => store.migrate(),
    close: () => store.close(),
    getRun: (id) => store.getRun(id),
    getConversation: (id) => store.getConversation(id),
    listRuns: (filter) => store.listRuns(filter),
    insertRun: async (run, options) => {
      writes.push(`${mark(options)}insert`);
      return (await store.insertRun?.(run, options)) ?? false;
    },
    replaceRun: (run, expected, options) => {
      writes.push(`${mark(options)}replace ${run.status}${flight(run)}`);
      return store.replaceRun(run, expected, options);
    },
    transaction: (body) => {
      writes.push('tx');
      return store.transaction(body);
    },
  };
}

export function writesContract(name: string, factory: WritesStoreFactory): void {
  describe(`${name}: how checkpoints are written`, () => {
    let store: RunStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await factory(new FakeClock()));
    });
    afterEach(async () => {
      await cleanup();
    });

    test('the store inserts a run in one statement, once: a second insert of its id is refused and changes nothing', async () => {
      expect(store.insertRun).toBeDefined();
      const agent = new Agent({
        model: scenarioModel(),
        tools: [stepTool(() => undefined)],
        store,
      });
      await agent.run('go', { runId: 'r1' });
      const before = await store.getRun('r1');
      expect(await store.insertRun?.({ ...(before as StoredRun), status: 'failed' })).toBe(false);
      expect(await store.getRun('r1')).toEqual(before);
    });

    test('only the start and a final answer skip the flush; every write-ahead record and result waits for it', async () => {
      const writes: Write[] = [];
      const agent = new Agent({
        model: scenarioModel(),
        tools: [stepTool(() => undefined)],
        store: recording(store, writes),
      });
      const result = await agent.run('go', { runId: 'seq' });
      expect(writes).toEqual([
        '~insert',
        'replace running ["a1"]', // write-ahead of a1, before it runs
        'replace running ["a2"]', // a1's result with a2's write-ahead
        'replace running', //         the batch committed, before the next model call
        'replace running ["c1"]',
        'replace running',
        '~replace running', //        the final answer, decoded next
        'replace completed', //       the end: flushed before run() returns
      ]);
      expect((await loadRun(store, 'seq')).messages).toEqual(result.messages);
    });

    test('in a parallel group each result waits for the flush', async () => {
      const writes: Write[] = [];
      const agent = new Agent({
        model: scenarioModel(),
        tools: [stepTool(() => undefined)],
        store: recording(store, writes),
        parallelToolCalls: true,
      });
      await agent.run('go', { runId: 'par' });
      expect(writes).toEqual([
        '~insert',
        'replace running ["a1","a2"]',
        expect.stringMatching(/^replace running \["a[12]"\]$/), // the first result, flushed
        'replace running', // the second result, flushed
        'replace running', // the batch committed
        'replace running ["c1"]',
        'replace running',
        '~replace running',
        'replace completed',
      ]);
      expect(transcript((await loadRun(store, 'par')).messages).slice(-1)).toEqual([
        'assistant: done',
      ]);
    });

    test('a run on a conversation starts in a transaction (it claims the conversation)', async () => {
      const writes: Write[] = [];
      const agent = new Agent({
        model: scenarioModel(),
        tools: [stepTool(() => undefined)],
        store: recording(store, writes),
      });
      await agent.run('go', { conversation: 'chat' });
      expect(writes[0]).toBe('tx');
      expect(writes.at(-1)).toBe('tx'); // completed: appended to the conversation atomically
    });
  });
}
