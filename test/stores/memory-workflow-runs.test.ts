/**
 * The workflow-store port of `memoryStore`: the shared contract (every instance is its own
 * database, so "another process" is the same instance), and rows copied in and out.
 */
import { memoryStore } from 'golem/stores/memory';
import { workflowRow, workflowRunsContract } from './support/contract-workflow-runs';

workflowRunsContract('memory', (clock) => {
  const store = memoryStore({ clock: clock.now });
  return Promise.resolve({ store, another: () => store, cleanup: () => store.close() });
});

test('callers cannot change stored workflow rows through the objects they pass or get', async () => {
  const store = memoryStore();
  const row = workflowRow('wf-1');
  await store.insertWorkflowRun(row);
  row.status = 'failed';
  const read = await store.getWorkflowRun('wf-1');
  expect(read?.status).toBe('running');
  if (read !== undefined) read.status = 'cancelled';
  const [listed] = await store.listWorkflowRuns();
  expect(listed?.status).toBe('running');
  if (listed !== undefined) listed.steps = 'x';
  expect((await store.getWorkflowRun('wf-1'))?.steps).toBe('[]');
});
