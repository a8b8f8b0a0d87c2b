/**
 * Memory in the container: `golemModule({ memory })` binds one `Memory`; an `@WorkingMemory`
 * agent class gets it with its DTO as the working memory (or one of its own without a binding).
 */
import { IsIn, IsOptional, IsString } from 'class-validator';
import { createGolemContainer, MEMORY, resolveAgent } from 'golem/container';
import { Agent, Instructions, WorkingMemory } from 'golem/decorators';
import { Memory } from 'golem/memory';
import { z } from 'zod';
import { memoryRecallStore, memoryStore } from 'golem/stores/memory';
import { ScriptedModel, TestEmbeddingModel, textResponse, toolCallResponse } from 'golem/testing';

class Profile {
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsIn(['free', 'pro']) plan?: string;
}

@Agent({ model: 'default', toolRetries: 1 })
@Instructions('You are a support agent.')
@WorkingMemory(Profile)
class SupportAgent {}

@Agent({ model: 'default' })
class PlainAgent {}

function scripted(): ScriptedModel {
  return new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'update_working_memory', args: { plan: 'pro' } }]),
    textResponse('Noted: you are on Pro.'),
  ]);
}

test('a @WorkingMemory agent sees its record and its tool updates it (no memory bound)', async () => {
  const model = scripted();
  const store = memoryStore();
  const container = createGolemContainer({
    env: {},
    resolveModelStrings: false,
    defaultModel: model,
    agents: [SupportAgent],
    store,
  });
  const agent = resolveAgent(container, SupportAgent);
  await agent.run('I upgraded to Pro', { owner: 'u1' });
  const system = model.requests[0]?.messages[0]?.content ?? '';
  expect(system).toContain('You are a support agent.');
  expect(system).toContain('<working_memory>');
  expect(model.requests[0]?.tools.map((t) => t.name)).toContain('update_working_memory');
  expect(JSON.parse((await store.getWorkingMemory('owner:u1'))?.value ?? '{}')).toEqual({
    plan: 'pro',
  });
});

test("the bound Memory's recall reaches every agent, and @WorkingMemory classes add their record", async () => {
  const embedder = new TestEmbeddingModel({ dimensions: 64 });
  const recallStore = memoryRecallStore({ dimensions: 64 });
  const memory = new Memory({ recall: { store: recallStore, embedder } });
  await memory.addDocuments('u1', [{ id: 'faq', text: 'Pro plan refunds take five days.' }]);
  const model = scripted();
  const plainModel = new ScriptedModel([textResponse('ok')]);
  const container = createGolemContainer({
    env: {},
    resolveModelStrings: false,
    defaultModel: model,
    models: { plain: plainModel },
    agents: [SupportAgent],
    store: memoryStore(),
    memory,
  });
  expect(container.get(MEMORY)).toBe(memory);
  await resolveAgent(container, SupportAgent).run('how long do pro refunds take', { owner: 'u1' });
  const system = model.requests[0]?.messages[0]?.content ?? '';
  expect(system).toContain('<working_memory>');
  expect(system).toContain('<recalled_context>');
  expect(system).toContain('Pro plan refunds take five days.');
  expect(await recallStore.count('u1')).toBeGreaterThan(1); // the run's messages were remembered
});

test('an agent without @WorkingMemory gets the bound Memory as is', async () => {
  const memory = new Memory({
    recall: {
      store: memoryRecallStore({ dimensions: 64 }),
      embedder: new TestEmbeddingModel({ dimensions: 64 }),
    },
  });
  const model = new ScriptedModel([textResponse('ok')]);
  const container = createGolemContainer({
    env: {},
    resolveModelStrings: false,
    defaultModel: model,
    agents: [PlainAgent],
    store: memoryStore(),
    memory,
  });
  await resolveAgent(container, PlainAgent).run('hello', { owner: 'u1' });
  expect(model.requests[0]?.tools).toEqual([]);
  await expect(resolveAgent(container, PlainAgent).run('hello')).rejects.toThrow(
    /scoped per owner/,
  );
});

test('golemModule rejects a memory that is not a Memory', () => {
  expect(() => createGolemContainer({ memory: {} as never })).toThrow(
    /memory must be a Memory from golem\/memory/,
  );
});

test('a Memory typed by its working-memory schema is accepted by golemModule', () => {
  const typed = new Memory({
    workingMemory: { schema: z.object({ plan: z.string().optional() }) },
  });
  const container = createGolemContainer({ env: {}, resolveModelStrings: false, memory: typed });
  expect(container.get(MEMORY)).toBe(typed);
});
