/**
 * `wf.runAgent` runs an agent as a durable step: its run is stored under `${runId}:${stepKey}` in
 * the same store; after a crash the agent run is continued (a tool that completed is not run
 * again), and a completed step replays the stored agent run.
 */
import { Agent, defineTool, loadRun } from 'golem';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { defineWorkflow } from 'golem/workflows';
import { clockedStore, gate, LEASE_MS, runnerOn } from './support';

function chargeTool(charges: { count: number }) {
  return defineTool({
    name: 'charge',
    description: 'Charge the card',
    schema: { type: 'object', properties: {} },
    execute: () => {
      charges.count++;
      return 'charged';
    },
  });
}

test('a tool that completed before a crash is not re-run when the workflow continues', async () => {
  const { store, clock } = clockedStore();
  const charges = { count: 0 };
  const hang = gate();
  const hanging = gate();
  const model = (dies: boolean) =>
    new FunctionModel(async (request) => {
      if (!request.messages.some((m) => m.role === 'tool'))
        return toolCallResponse([{ id: 'c1', name: 'charge', args: {} }]);
      if (dies) {
        hanging.open();
        await hang.promise; // the process dies after the tool, before the answer
      }
      return textResponse('charged once');
    });
  const flow = (dies: boolean) =>
    defineWorkflow({
      name: 'billing',
      async run(_: null, wf) {
        const result = await wf.runAgent(
          'bill',
          new Agent({ model: model(dies), tools: [chargeTool(charges)], name: 'biller' }),
          'charge it',
        );
        return wf.step('done', () => result.output);
      },
    });
  const first = runnerOn(store, [flow(true)]).runner;
  const crashed = first.start('billing', null, { runId: 'w' }).catch((e: unknown) => e);
  await hanging.promise;
  expect(charges.count).toBe(1);

  clock.advance(LEASE_MS + 1);
  const second = runnerOn(store, [flow(false)]).runner;
  expect(await second.recover()).toEqual(['w']);
  const info = await second.get('w');
  expect(info).toMatchObject({ status: 'completed', output: 'charged once' });
  expect(charges.count).toBe(1);
  expect(info.steps[0]).toMatchObject({
    key: 'bill',
    kind: 'agent',
    agentRunId: 'w:bill',
    output: 'charged once',
  });
  const agentRun = await loadRun(store, 'w:bill');
  expect(agentRun.status).toBe('completed');
  hang.open();
  expect(await crashed).toMatchObject({ kind: 'lease-lost' });
});

test('a completed agent step replays the stored agent run without calling the model', async () => {
  const { store, clock } = clockedStore();
  let modelCalls = 0;
  let waits = 0;
  const hang = gate();
  const after = gate();
  const agent = new Agent({
    name: 'writer',
    model: new FunctionModel(() => {
      modelCalls++;
      return textResponse('a summary');
    }),
  });
  const flow = defineWorkflow({
    name: 'summarise',
    async run(_: null, wf) {
      const note = await wf.runAgent('summarise', agent, 'summarise');
      await wf.step('wait', async () => {
        if (++waits > 1) return;
        after.open();
        await hang.promise; // the first process dies here
      });
      return `${note.output} (${String(note.messages.length)} messages, run ${note.runId ?? '?'}, by ${note.agent})`;
    },
  });
  const first = runnerOn(store, [flow]).runner;
  const crashed = first.start('summarise', null, { runId: 's' }).catch((e: unknown) => e);
  await after.promise;
  clock.advance(LEASE_MS + 1);
  const second = runnerOn(store, [flow]).runner;
  expect(await second.recover()).toEqual(['s']);
  expect(modelCalls).toBe(1);
  expect((await second.get('s')).output).toBe('a summary (2 messages, run s:summarise, by writer)');
  hang.open();
  expect(await crashed).toMatchObject({ kind: 'lease-lost' });
});
