import { Agent, defineTool, requireApproval, type ModelSettings } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const echo = defineTool({ name: 'echo', schema: { type: 'object' }, execute: () => 'echoed' });

function toolThenText() {
  return new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'echo' }]), textResponse('done')]);
}

describe('request tuning (spec §23, modelSettings)', () => {
  test('neither agent nor run settings: requests carry no `settings` field', async () => {
    const model = toolThenText();
    const agent = new Agent({ model, tools: [echo] });

    await agent.run('hi');

    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) expect('settings' in request).toBe(false);
  });

  test('empty settings objects on agent and run also leave `settings` absent', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model, modelSettings: {} });

    await agent.run('hi', { modelSettings: {} });

    expect('settings' in (model.lastRequest ?? {})).toBe(false);
  });

  test('agent settings alone travel on every request of the run', async () => {
    const model = toolThenText();
    const agent = new Agent({
      model,
      tools: [echo],
      modelSettings: { temperature: 0.2, maxTokens: 256 },
    });

    await agent.run('hi');

    expect(model.requests.map((r) => r.settings)).toEqual([
      { temperature: 0.2, maxTokens: 256 },
      { temperature: 0.2, maxTokens: 256 },
    ]);
  });

  test('run settings alone travel on the request', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model });

    await agent.run('hi', { modelSettings: { topP: 0.9, stop: ['END'] } });

    expect(model.lastRequest?.settings).toEqual({ topP: 0.9, stop: ['END'] });
  });

  test('run settings are merged shallowly over agent settings', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({
      model,
      modelSettings: {
        temperature: 0.7,
        maxTokens: 100,
        thinking: { mode: 'enabled', budgetTokens: 2048, includeThoughts: true },
      },
    });

    await agent.run('hi', {
      modelSettings: { maxTokens: 500, seed: 7, thinking: { mode: 'adaptive' } },
    });

    expect(model.lastRequest?.settings).toEqual({
      temperature: 0.7,
      maxTokens: 500,
      seed: 7,
      thinking: { mode: 'adaptive' },
    });
  });

  test('temperature 0 and topP 0 from the run are kept (0 is a real value)', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model, modelSettings: { temperature: 0.7, topP: 0.5 } });

    await agent.run('hi', { modelSettings: { temperature: 0, topP: 0 } });

    expect(model.lastRequest?.settings).toEqual({ temperature: 0, topP: 0 });
  });

  test('temperature 0 on the agent alone is sent as 0', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model, modelSettings: { temperature: 0 } });

    await agent.run('hi');

    expect(model.lastRequest?.settings).toEqual({ temperature: 0 });
  });

  test("one run's settings do not leak into the next run of the same agent", async () => {
    const model = new ScriptedModel([textResponse('one'), textResponse('two')]);
    const agent = new Agent({ model, modelSettings: { temperature: 0.3 } });

    await agent.run('first', { modelSettings: { temperature: 1, maxTokens: 10 } });
    await agent.run('second');

    expect(model.requests.map((r) => r.settings)).toEqual([
      { temperature: 1, maxTokens: 10 },
      { temperature: 0.3 },
    ]);
  });

  test('the merge does not mutate the agent or run settings objects', async () => {
    const agentSettings: ModelSettings = { temperature: 0.3 };
    const runSettings: ModelSettings = { maxTokens: 5 };
    const agent = new Agent({
      model: new ScriptedModel([textResponse('ok')]),
      modelSettings: agentSettings,
    });

    await agent.run('hi', { modelSettings: runSettings });

    expect(agentSettings).toEqual({ temperature: 0.3 });
    expect(runSettings).toEqual({ maxTokens: 5 });
  });

  test('streaming runs carry the merged settings too', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model, modelSettings: { temperature: 0.1 } });

    await agent.runStream('hi', { modelSettings: { reasoningEffort: 'low' } }).result;

    expect(model.lastRequest?.settings).toEqual({ temperature: 0.1, reasoningEffort: 'low' });
  });

  test('a resumed run merges its own settings over the agent settings', async () => {
    const gated = defineTool({
      name: 'gated',
      schema: { type: 'object' },
      execute: (_args, ctx) => {
        if (!ctx.approved) throw requireApproval();
        return 'ran';
      },
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'g1', name: 'gated' }]),
      textResponse('ok'),
    ]);
    const agent = new Agent({
      deferredTools: true,
      model,
      tools: [gated],
      modelSettings: { temperature: 0.4 },
    });
    const paused = await agent.run('go');

    await agent.resume(
      paused.messages,
      { approvals: { g1: { approved: true } } },
      { modelSettings: { maxTokens: 64 } },
    );

    expect(model.requests.map((r) => r.settings)).toEqual([
      { temperature: 0.4 },
      { temperature: 0.4, maxTokens: 64 },
    ]);
  });
});
