import type { RunAccess } from './run-access';
import type { StoredWorkflowRun } from './store-port';

/** Continues the due suspended runs of `access`'s workflows (timers due at `now`); their ids. Internal. */
export async function wakeDueRuns(access: RunAccess, at?: number): Promise<string[]> {
  const now = at ?? access.settings.store.now();
  const rows = await access.settings.store.listWorkflowRuns({
    status: ['suspended'],
    dueBefore: now,
  });
  const woken: string[] = [];
  await Promise.allSettled(
    rows
      .filter((row) => knows(access, row))
      .map(async (row) => {
        const claimed = await access.claim(row, { status: 'running', waiting: null, wakeAt: null });
        if (claimed === undefined) return;
        woken.push(row.id);
        await access.execute(claimed, row, { resumed: true, now });
      }),
  );
  return woken;
}

/** Continues the running runs of `access`'s workflows nobody holds a lease on; their ids. Internal. */
export async function recoverRuns(access: RunAccess, olderThan?: number): Promise<string[]> {
  const { store } = access.settings;
  const now = store.now();
  const rows = await store.listWorkflowRuns({ status: ['running'] });
  const due = rows.filter(
    (row) =>
      knows(access, row) &&
      !access.leased(row) &&
      (olderThan === undefined || row.updatedAt <= now - olderThan),
  );
  const recovered: string[] = [];
  await Promise.allSettled(
    due.map(async (row) => {
      const claimed = await access.claim(row);
      if (claimed === undefined) return;
      recovered.push(row.id);
      await access.execute(claimed, row, { resumed: true });
    }),
  );
  return recovered;
}

/** Whether `access`'s runner executes `row`'s workflow (sweeps leave other workflows' runs alone). */
function knows(access: RunAccess, row: StoredWorkflowRun): boolean {
  return access.settings.workflows.has(row.workflow);
}
