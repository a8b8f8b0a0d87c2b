/**
 * The workflow-store contract: rows kept verbatim, inserts that never overwrite, replacements
 * conditional on the version (two writers from the same version: exactly one wins, also across
 * two store instances on one database), listing with filters, order and limits, due timers, bad
 * input refused and a closed store refusing everything. Registered by each adapter's suite.
 */
import { StoreError } from 'golem';
import type { RunStore } from 'golem';
import type { StoredWorkflowRun, WorkflowStore } from 'golem/workflows';
import { FakeClock } from './scenario';

/** A store that is both ports (what golem's run stores are). */
export type BothStores = RunStore & WorkflowStore;

/**
 * Builds a fresh, empty database on `clock`: `store` on it, `another()` a second store instance
 * on the same database (another "process"), `cleanup` closes them and removes the database.
 */
export type WorkflowStoreFactory = (clock: FakeClock) => Promise<{
  store: BothStores;
  another: () => BothStores;
  cleanup: () => Promise<void>;
}>;

/** A workflow run row; times near `Date.UTC(2030, 0, 1)` (beyond 32 bits). */
export function workflowRow(id: string, over: Partial<StoredWorkflowRun> = {}): StoredWorkflowRun {
  const t = Date.UTC(2030, 0, 1);
  return {
    id,
    workflow: 'order',
    owner: null,
    status: 'running',
    input: '{"sku":"a-1","qty":2}',
    output: null,
    steps: '[]',
    waiting: null,
    wakeAt: null,
    error: null,
    forkedFrom: null,
    createdAt: t,
    updatedAt: t,
    leaseOwner: 'worker-1',
    leaseExpiresAt: t + 30_000,
    version: 1,
    ...over,
  };
}

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!StoreError.is(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return error.reason;
}

export function workflowRunsContract(name: string, factory: WorkflowStoreFactory): void {
  describe(`${name}: stored workflow runs`, () => {
    let clock: FakeClock;
    let store: BothStores;
    let another: () => BothStores;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      clock = new FakeClock();
      ({ store, another, cleanup } = await factory(clock));
    });
    afterEach(async () => {
      await cleanup();
    });

    test('a run is stored verbatim, every field, and read back equal', async () => {
      const full = workflowRow('wf-1', {
        owner: 'alice',
        status: 'suspended',
        output: '"ünïcode ✓ \\"quoted\\" 🚀"',
        steps: '[{"key":"a","name":"a","kind":"step","status":"completed","seq":0}]',
        waiting: '[{"kind":"timer","wakeAt":1893456000000}]',
        wakeAt: Date.UTC(2031, 5, 1),
        error: '{"name":"Error","message":"x"}',
        forkedFrom: '{"runId":"wf-0","step":"a"}',
        leaseOwner: null,
        leaseExpiresAt: null,
        version: 7,
      });
      expect(await store.insertWorkflowRun(full)).toBe(true);
      expect(await store.getWorkflowRun('wf-1')).toEqual(full);
      expect(await store.getWorkflowRun('wf-2')).toBeUndefined();
      expect(await store.getWorkflowRun('')).toBeUndefined();
      expect(store.now()).toBe(clock.t);
      clock.advance(5);
      expect(store.now()).toBe(clock.t);
      expect(store.leaseMs).toBe(30_000);
    });

    test('inserting an existing id resolves false and leaves the stored run alone', async () => {
      const first = workflowRow('wf-1');
      expect(await store.insertWorkflowRun(first)).toBe(true);
      expect(
        await store.insertWorkflowRun(workflowRow('wf-1', { workflow: 'other', version: 9 })),
      ).toBe(false);
      expect(await store.getWorkflowRun('wf-1')).toEqual(first);
    });

    test('a replacement applies only at the expected version, and replaces the whole row', async () => {
      await store.insertWorkflowRun(workflowRow('wf-1', { owner: 'alice', wakeAt: 5 }));
      const next = workflowRow('wf-1', {
        status: 'completed',
        output: '{"ok":true}',
        steps: '[{"key":"a"}]',
        updatedAt: clock.t + 10,
        version: 2,
      });
      expect(await store.replaceWorkflowRun(next, 2)).toBe(false);
      expect(await store.replaceWorkflowRun(next, 1)).toBe(true);
      expect(await store.getWorkflowRun('wf-1')).toEqual(next); // owner and wakeAt now null
      expect(await store.replaceWorkflowRun({ ...next, version: 3 }, 1)).toBe(false);
      expect(await store.getWorkflowRun('wf-1')).toEqual(next);
      expect(await store.replaceWorkflowRun(workflowRow('missing', { version: 2 }), 1)).toBe(false);
      expect(await store.getWorkflowRun('missing')).toBeUndefined();
    });

    test('two store instances replacing from the same version: exactly one wins, each time', async () => {
      const other = another();
      // Opened first: with a synchronous driver (SQLite), one instance's migration transaction
      // and the other's write in the same thread would wait on each other.
      await other.migrate();
      await store.insertWorkflowRun(workflowRow('wf-1'));
      for (let version = 1; version <= 5; version++) {
        const mine = workflowRow('wf-1', { version: version + 1, leaseOwner: 'mine' });
        const theirs = workflowRow('wf-1', { version: version + 1, leaseOwner: 'theirs' });
        const results = await Promise.all([
          store.replaceWorkflowRun(mine, version),
          other.replaceWorkflowRun(theirs, version),
        ]);
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = results[0] ? mine : theirs;
        expect(await store.getWorkflowRun('wf-1')).toEqual(winner);
        expect(await other.getWorkflowRun('wf-1')).toEqual(winner);
      }
      const inserts = await Promise.all([
        store.insertWorkflowRun(workflowRow('wf-2', { leaseOwner: 'mine' })),
        other.insertWorkflowRun(workflowRow('wf-2', { leaseOwner: 'theirs' })),
      ]);
      expect(inserts.filter(Boolean)).toHaveLength(1);
    });

    test('listing filters by workflow, statuses and owner; newest first, ties by id', async () => {
      const t = clock.t;
      const rows = [
        workflowRow('b', { updatedAt: t + 2, owner: 'alice' }),
        workflowRow('a', { updatedAt: t + 2, status: 'suspended' }),
        workflowRow('c', { updatedAt: t + 3, workflow: 'refund', owner: 'alice' }),
        workflowRow('d', { updatedAt: t + 1, status: 'completed', owner: 'bob' }),
        workflowRow('e', { updatedAt: t + 5, status: 'failed', owner: 'alice' }),
      ];
      for (const row of rows) expect(await store.insertWorkflowRun(row)).toBe(true);
      const ids = async (filter?: Parameters<WorkflowStore['listWorkflowRuns']>[0]) =>
        (await store.listWorkflowRuns(filter)).map((r) => r.id);
      expect(await ids()).toEqual(['e', 'c', 'a', 'b', 'd']);
      expect(await store.listWorkflowRuns({ workflow: 'refund' })).toEqual([rows[2]]);
      expect(await ids({ workflow: 'order' })).toEqual(['e', 'a', 'b', 'd']);
      expect(await ids({ status: ['running', 'completed'] })).toEqual(['c', 'b', 'd']);
      expect(await ids({ status: [] })).toEqual([]);
      expect(await ids({ owner: 'alice' })).toEqual(['e', 'c', 'b']);
      expect(await ids({ owner: 'carol' })).toEqual([]);
      expect(await ids({ owner: 'alice', status: ['running'], workflow: 'order' })).toEqual(['b']);
      expect(await ids({ limit: 2 })).toEqual(['e', 'c']);
      expect(await ids({ limit: 0 })).toEqual([]);
    });

    test('listing returns at most 100 runs unless a limit says otherwise', async () => {
      for (let i = 0; i < 101; i++)
        await store.insertWorkflowRun(
          workflowRow(`r${String(i).padStart(3, '0')}`, { updatedAt: clock.t + i }),
        );
      const page = await store.listWorkflowRuns();
      expect(page).toHaveLength(100);
      expect(page[0]?.id).toBe('r100');
      expect(page.at(-1)?.id).toBe('r001');
      expect(await store.listWorkflowRuns({ limit: 150 })).toHaveLength(101);
    });

    test('due timers: suspended runs whose wakeAt is at or before dueBefore', async () => {
      const t = clock.t;
      await store.insertWorkflowRun(workflowRow('early', { status: 'suspended', wakeAt: t - 5 }));
      await store.insertWorkflowRun(workflowRow('exact', { status: 'suspended', wakeAt: t }));
      await store.insertWorkflowRun(workflowRow('later', { status: 'suspended', wakeAt: t + 1 }));
      await store.insertWorkflowRun(workflowRow('no-timer', { status: 'suspended' }));
      await store.insertWorkflowRun(workflowRow('running', { wakeAt: t - 5 }));
      await store.insertWorkflowRun(
        workflowRow('other-wf', { status: 'suspended', wakeAt: t - 5, workflow: 'refund' }),
      );
      const ids = async (filter: Parameters<WorkflowStore['listWorkflowRuns']>[0]) =>
        (await store.listWorkflowRuns(filter)).map((r) => r.id).sort();
      expect(await ids({ dueBefore: t })).toEqual(['early', 'exact', 'other-wf']);
      expect(await ids({ dueBefore: t + 0.5 })).toEqual(['early', 'exact', 'other-wf']);
      expect(await ids({ dueBefore: t - 6 })).toEqual([]);
      expect(await ids({ dueBefore: t, workflow: 'order' })).toEqual(['early', 'exact']);
      expect(await ids({ dueBefore: t, status: ['suspended'] })).toEqual([
        'early',
        'exact',
        'other-wf',
      ]);
      expect(await ids({ dueBefore: t, status: ['running'] })).toEqual([]);
      expect(await ids({ dueBefore: Number.POSITIVE_INFINITY })).toEqual([
        'early',
        'exact',
        'later',
        'other-wf',
      ]);
    });

    test('a field of the wrong type is refused as invalid-input and nothing is written', async () => {
      const bad = { ...workflowRow('wf-1'), version: 1.5 };
      expect(await reasonOf(store.insertWorkflowRun(bad))).toBe('invalid-input');
      const noSteps = { ...workflowRow('wf-1'), steps: undefined } as unknown as StoredWorkflowRun;
      expect(await reasonOf(store.insertWorkflowRun(noSteps))).toBe('invalid-input');
      expect(await store.getWorkflowRun('wf-1')).toBeUndefined();
      await store.insertWorkflowRun(workflowRow('wf-1'));
      const wake = { ...workflowRow('wf-1', { version: 2 }), wakeAt: '1' as unknown as number };
      expect(await reasonOf(store.replaceWorkflowRun(wake, 1))).toBe('invalid-input');
      expect(await reasonOf(store.listWorkflowRuns({ dueBefore: Number.NaN }))).toBe(
        'invalid-input',
      );
      expect(await store.getWorkflowRun('wf-1')).toEqual(workflowRow('wf-1'));
    });

    test('a closed store refuses every workflow operation with a closed StoreError', async () => {
      await store.insertWorkflowRun(workflowRow('wf-1'));
      await store.close();
      expect(await reasonOf(store.getWorkflowRun('wf-1'))).toBe('closed');
      expect(await reasonOf(store.insertWorkflowRun(workflowRow('wf-2')))).toBe('closed');
      expect(await reasonOf(store.replaceWorkflowRun(workflowRow('wf-1'), 1))).toBe('closed');
      expect(await reasonOf(store.listWorkflowRuns())).toBe('closed');
    });
  });
}
