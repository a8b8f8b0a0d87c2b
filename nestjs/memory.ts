import { Inject, type Type } from '@nestjs/common';
import { isRecord } from '../src/core/kit/guards';
import { workingMemoryOf } from '../decorators/index';
import { Memory, type AgentMemory } from '../src/memory/index';
import { nestError } from './errors';
import { makeToken } from './tokens';

/** Shared by every copy of the package loaded in one process, like the other tokens. */
const TOKEN_KEY = Symbol.for('golem.nestjs.memoryToken');
const token: Type<Memory<object>> = ((
  globalThis as Record<symbol, Type<Memory<object>> | undefined>
)[TOKEN_KEY] ??= makeToken<Memory<object>>('GolemMemory'));

/**
 * The Nest injection token of the `Memory` given to `GolemModule.forRoot({ memory })` (`null`
 * without one): every agent `forFeature` builds runs with it, and a test replaces it with
 * `overrideProvider(getMemoryToken()).useValue(new Memory({ … }))`.
 */
export function getMemoryToken(): Type<Memory<object>> {
  return token;
}

/** Injects the `Memory` of `GolemModule.forRoot({ memory })` (e.g. to call `addDocuments`). */
export function InjectMemory(): PropertyDecorator & ParameterDecorator {
  return Inject(token);
}

/** Throws `invalid-options` unless `memory` looks like a `Memory` (from `golem/memory`). */
export function checkMemory(memory: unknown, where: string): Memory<object> | undefined {
  if (memory === undefined) return undefined;
  if (
    !isRecord(memory) ||
    typeof memory.recall !== 'function' ||
    typeof memory.withWorkingMemory !== 'function'
  )
    throw nestError(
      `${where}: memory must be a Memory from golem/memory, e.g. new Memory({ recall: { store, embedder } })`,
      { reason: 'invalid-options' },
    );
  return memory as unknown as Memory<object>;
}

/** Working-memory-only memories of `@WorkingMemory` classes when the app gives no `Memory`. */
const own = new WeakMap<object, Memory<object>>();

/** The memory an agent class runs with: the app's, given the class's `@WorkingMemory` if any. */
export function memoryForAgent(
  memory: AgentMemory | null | undefined,
  agentClass: object,
): AgentMemory | undefined {
  const workingMemory = workingMemoryOf(agentClass);
  if (workingMemory === undefined) return memory ?? undefined;
  if (memory instanceof Memory) return memory.withWorkingMemory(workingMemory);
  if (memory !== undefined && memory !== null) return memory; // another AgentMemory: the app's own
  let made = own.get(workingMemory);
  if (made === undefined) {
    made = new Memory<object>({ workingMemory });
    own.set(workingMemory, made);
  }
  return made;
}
