import { workingMemoryOf } from '../decorators/index';
import { Memory, type AgentMemory } from '../src/memory/index';

/**
 * The `Memory` every agent of the container uses (`golem/memory`): bind it once with
 * `golemModule({ memory })`; an agent binding's own `memory` option wins. An agent class with
 * `@WorkingMemory(Dto)` gets this memory with the DTO as its working memory (or, with no memory
 * bound, a `Memory` of its own holding only that working memory).
 */
export const MEMORY: unique symbol = Symbol.for('golem.container.memory');

/** Working-memory-only memories of `@WorkingMemory` classes when the app binds no `Memory`. */
const own = new WeakMap<object, Memory<object>>();

/** The memory an agent class runs with: the app's, given the class's `@WorkingMemory` if any. */
export function memoryForAgent(
  memory: AgentMemory | undefined,
  agentClass: object,
): AgentMemory | undefined {
  const workingMemory = workingMemoryOf(agentClass);
  if (workingMemory === undefined) return memory;
  if (memory instanceof Memory) return memory.withWorkingMemory(workingMemory);
  if (memory !== undefined) return memory; // another AgentMemory: the app's own design
  let made = own.get(workingMemory);
  if (made === undefined) {
    made = new Memory<object>({ workingMemory });
    own.set(workingMemory, made);
  }
  return made;
}
