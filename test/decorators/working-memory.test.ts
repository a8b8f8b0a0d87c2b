/** @WorkingMemory: the DTO becomes a Standard Schema (class-validator, strict) and a JSON Schema. */
import { ConfigError, ModelRetry } from 'golem';
import { Agent, Describe, WorkingMemory, workingMemoryOf } from 'golem/decorators';
import { Memory } from 'golem/memory';
import { memoryStore } from 'golem/stores/memory';
import { IsIn, IsInt, IsOptional, IsString, Min } from 'class-validator';
import { call, toolContext } from '../src/memory/support';

class UserProfile {
  @Describe('How the user wants to be addressed') @IsOptional() @IsString() name?: string;
  @IsOptional() @IsIn(['free', 'pro', 'enterprise']) plan?: string;
  @IsOptional() @IsInt() @Min(1) seats?: number;
}

@Agent({ model: 'default' })
@WorkingMemory(UserProfile, { scope: 'thread', toolName: 'save_profile' })
class SupportAgent {}

@Agent({ model: 'default' })
class PlainAgent {}

test('workingMemoryOf compiles the DTO, its scope and tool name', () => {
  const definition = workingMemoryOf(SupportAgent);
  expect(definition?.scope).toBe('thread');
  expect(definition?.toolName).toBe('save_profile');
  expect(definition?.jsonSchema.properties).toHaveProperty('plan');
  expect(workingMemoryOf(PlainAgent)).toBeUndefined();
});

test('a subclass inherits its base class working memory', () => {
  class Derived extends SupportAgent {}
  expect(workingMemoryOf(Derived)?.dto).toBe(UserProfile);
});

test('the DTO drives the update tool: its schema and strict class-validator validation', async () => {
  const definition = workingMemoryOf(SupportAgent);
  if (definition === undefined) throw new Error('no working memory');
  const store = memoryStore();
  const memory = new Memory({ workingMemory: definition, store });
  const tool = memory.tools[0];
  if (tool === undefined) throw new Error('no tool');
  expect(tool.name).toBe('save_profile');
  expect(
    (tool.schema.properties as Record<string, { description?: string }>).name?.description,
  ).toBe('How the user wants to be addressed');
  const ctx = toolContext('u1', 'c1');
  await call(tool, { name: 'Ada', plan: 'pro' }, ctx);
  expect(await memory.workingMemory({ conversationId: 'c1' })).toEqual({
    name: 'Ada',
    plan: 'pro',
  });
  const wrong = call(tool, { plan: 'gold' }, ctx);
  await expect(wrong).rejects.toBeInstanceOf(ModelRetry);
  await expect(wrong).rejects.toThrow(/plan/);
  await expect(call(tool, { hobby: 'chess' }, ctx)).rejects.toThrow(/hobby/);
  expect(await memory.workingMemory({ conversationId: 'c1' })).toEqual({
    name: 'Ada',
    plan: 'pro',
  });
});

test('a DTO with a required field is a definition error naming the fix', () => {
  class Strict {
    @IsString() name!: string;
  }
  @WorkingMemory(Strict)
  class Agentish {}
  expect(() => workingMemoryOf(Agentish)).toThrow(/mark every property @IsOptional\(\)/);
  expect(() => workingMemoryOf(Agentish)).toThrow(ConfigError);
});

test('a class without validators is a definition error', () => {
  class Bare {
    name?: string;
  }
  @WorkingMemory(Bare)
  class Agentish {}
  let error: unknown;
  try {
    workingMemoryOf(Agentish);
  } catch (caught) {
    error = caught;
  }
  expect(ConfigError.is(error, 'decorators', 'invalid-dto')).toBe(true);
});
