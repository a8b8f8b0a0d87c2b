import { Agent } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { ScriptedModel, textResponse } from 'golem/testing';
import { listRuns } from 'golem';
import { call, serve, type Served } from './studio-harness';

let served: Served | undefined;

afterEach(async () => {
  await served?.stop();
  served = undefined;
});

const userText = (text: string) => ({
  messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }],
});

function chunks(text: string): Record<string, unknown>[] {
  return text
    .split('\n\n')
    .filter((f) => f.startsWith('data: ') && f !== 'data: [DONE]')
    .map((f) => JSON.parse(f.slice(6)) as Record<string, unknown>);
}

test('the playground streams a UI message stream; the run is stored with the studio owner', async () => {
  const store = memoryStore();
  const model = new ScriptedModel([textResponse('Hello from the agent.')]);
  const agent = new Agent({ name: 'greeter', model });
  served = await serve({ store, agents: [agent], owner: 'ann' });
  const answer = await call(served, '/api/playground/greeter', {
    method: 'POST',
    body: { ...userText('hi'), settings: { temperature: 0.2, maxTokens: 50 } },
  });
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toContain('text/event-stream');
  const text = chunks(answer.text)
    .filter((c) => c.type === 'text-delta')
    .map((c) => c.delta)
    .join('');
  expect(text).toBe('Hello from the agent.');
  expect(answer.text).toContain('data: [DONE]');
  expect(model.requests[0]?.settings).toMatchObject({ temperature: 0.2, maxTokens: 50 });
  const runs = await listRuns(store, { owner: 'ann' });
  expect(runs.map((r) => r.agent)).toEqual(['greeter']);
});

test('a model picked by name answers instead of the agent model', async () => {
  const own = new ScriptedModel([textResponse('own')]);
  const other = new ScriptedModel([textResponse('from the other model')]);
  served = await serve({
    store: memoryStore(),
    agents: [new Agent({ name: 'greeter', model: own })],
    models: { other },
  });
  const answer = await call(served, '/api/playground/greeter', {
    method: 'POST',
    body: { ...userText('hi'), model: 'other' },
  });
  expect(answer.text).toContain('from the other model');
  expect(own.calls).toBe(0);
  expect(other.calls).toBe(1);
});

test('an unknown agent or model is 404/400; a bad body is 400', async () => {
  served = await serve({
    store: memoryStore(),
    agents: [new Agent({ name: 'greeter', model: new ScriptedModel() })],
  });
  expect(
    (await call(served, '/api/playground/nobody', { method: 'POST', body: userText('x') })).status,
  ).toBe(404);
  expect(
    (
      await call(served, '/api/playground/greeter', {
        method: 'POST',
        body: { ...userText('x'), model: 'zzz' },
      })
    ).status,
  ).toBe(400);
  expect(
    (await call(served, '/api/playground/greeter', { method: 'POST', body: { messages: 'no' } }))
      .status,
  ).toBe(400);
});
