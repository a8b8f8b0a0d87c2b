/** End to end through `new Agent({ memory })`: the blocks reach the model, the tool writes, runs are remembered. */
import { Agent, type RunEvent } from 'golem';
import type { EmbeddingModel } from 'golem/memory';
import { Memory } from 'golem/memory';
import { memoryRecallStore, memoryStore } from 'golem/stores/memory';
import { ScriptedModel, TestEmbeddingModel, textResponse, toolCallResponse } from 'golem/testing';
import { z } from 'zod';

const Profile = z.object({ plan: z.enum(['free', 'pro']).optional() });

function systemOf(model: ScriptedModel, index = 0): string {
  return model.requests[index]?.messages.find((m) => m.role === 'system')?.content ?? '';
}

test("the model's request carries the working memory block and the tool updates the record", async () => {
  const store = memoryStore();
  const memory = new Memory({ workingMemory: { schema: Profile } });
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'update_working_memory', args: { plan: 'pro' } }]),
    textResponse('Saved.'),
    textResponse('You are on pro.'),
  ]);
  const agent = new Agent({ model, store, memory, instructions: 'Be brief.' });
  await agent.run('I am on pro', { owner: 'u1', conversation: 't1' });
  expect(systemOf(model)).toMatch(
    /^Be brief\.\n\n<working_memory>\n[^\n]+\n\{\}\n<\/working_memory>$/,
  );
  expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['update_working_memory']);
  expect(model.requests[1]?.messages.at(-1)?.content).toBe(
    'Saved. Working memory now: {"plan":"pro"}',
  );
  await agent.run('which plan?', { owner: 'u1', conversation: 't2' });
  expect(systemOf(model, 2)).toContain('\n{"plan":"pro"}\n');
});

test('an invalid update is fed back to the model, which corrects it within toolRetries', async () => {
  const store = memoryStore();
  const memory = new Memory({ workingMemory: { schema: Profile } });
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'update_working_memory', args: { plan: 'gold' } }]),
    toolCallResponse([{ id: 'c2', name: 'update_working_memory', args: { plan: 'pro' } }]),
    textResponse('Saved.'),
  ]);
  const agent = new Agent({ model, store, memory, toolRetries: 1 });
  await agent.run('I am on gold, no, pro', { owner: 'u1' });
  expect(model.requests[1]?.messages.at(-1)?.content).toMatch(/plan/);
  expect(await memory.workingMemory({ owner: 'u1', store })).toEqual({ plan: 'pro' });
});

test('a completed run is remembered and recalled by a run in another thread', async () => {
  const recallStore = memoryRecallStore({ dimensions: 64 });
  const memory = new Memory({
    recall: { store: recallStore, embedder: new TestEmbeddingModel({ dimensions: 64 }) },
  });
  const model = new ScriptedModel([textResponse('Noted.'), textResponse('Lisbon.')]);
  const agent = new Agent({ model, store: memoryStore(), memory });
  await agent.run('I moved to Lisbon last spring', { owner: 'u1', conversation: 't1' });
  expect(await recallStore.count('u1')).toBe(2);
  await agent.run('where did I move to?', { owner: 'u1', conversation: 't2' });
  expect(systemOf(model, 1)).toContain('<memory thread="t1" role="user" at="');
  expect(systemOf(model, 1)).toContain('I moved to Lisbon last spring');
});

test('a failing remember is a memory_failed event, the result stands, and the next run catches up', async () => {
  const recallStore = memoryRecallStore({ dimensions: 64 });
  const inner = new TestEmbeddingModel({ dimensions: 64 });
  let down = true;
  const embedder: EmbeddingModel = {
    maxBatch: inner.maxBatch,
    embed: (value, options) => inner.embed(value, options),
    embedMany: (values, options) =>
      down ? Promise.reject(new Error('embeddings down')) : inner.embedMany(values, options),
  };
  const memory = new Memory({ recall: { store: recallStore, embedder } });
  const events: RunEvent[] = [];
  const model = new ScriptedModel([textResponse('Noted.'), textResponse('Tom.')]);
  const agent = new Agent({ model, store: memoryStore(), memory, onEvent: (e) => events.push(e) });
  const result = await agent.run('my cat is called Tom', { owner: 'u1', conversation: 't1' });
  expect(result.output).toBe('Noted.');
  expect(events.filter((e) => e.kind === 'memory_failed')).toHaveLength(1);
  expect(await recallStore.count('u1')).toBe(0);
  down = false;
  await agent.run('what is my cat called?', { owner: 'u1', conversation: 't1' });
  // Caught up before the second run's recall (2 entries), then its own messages (2 more).
  expect(await recallStore.count('u1')).toBe(4);
});

test('a run without an owner is rejected before any model call', async () => {
  const model = new ScriptedModel([textResponse('never')]);
  const agent = new Agent({
    model,
    store: memoryStore(),
    memory: new Memory({ workingMemory: { schema: Profile } }),
  });
  await expect(agent.run('hi')).rejects.toThrow(/scoped per owner/);
  expect(model.requests).toHaveLength(0);
});
