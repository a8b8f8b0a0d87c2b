import type { Message } from '../contract/message';
import type { RunStore } from '../durable/port';
import { RunInputError } from '../engine/errors';
import type { RunProgress } from '../engine/run-progress';
import type { RunSettings } from '../engine/run-config';
import { describeError } from '../kit/error-base';
import type { AgentMemory, MemoryContext } from './memory-port';

/** What a run tells its agent's memory. Internal. */
export function memoryContext<Deps>(
  run: RunSettings<Deps>,
  prompt: string,
  history: readonly Message[],
  store: RunStore | undefined,
): MemoryContext {
  return {
    owner: run.owner,
    conversationId: run.conversationId,
    prompt,
    history: history.filter((m) => m.role !== 'system'),
    store,
    get signal() {
      return run.signal;
    },
  };
}

/**
 * What the memory recalls for a run (the text appended to its instructions); its failure fails
 * the run before any model call (`RunInputError`). Internal.
 */
export async function recallFor(
  memory: AgentMemory,
  context: MemoryContext,
): Promise<string | undefined> {
  let recalled: unknown;
  try {
    recalled = await memory.recall(context);
  } catch (cause) {
    throw new RunInputError(`memory recall failed: ${describeError(cause)}`, { cause });
  }
  if (recalled === undefined || recalled === null || recalled === '') return undefined;
  if (typeof recalled !== 'string')
    throw new RunInputError(`memory recall returned ${typeof recalled}; return a string`);
  return recalled;
}

/** Has a completed `state` give its messages from `from` on to the memory. Internal. */
export function rememberWith<Deps>(
  state: RunProgress<Deps>,
  memory: AgentMemory,
  context: MemoryContext,
  from: number,
): void {
  if (memory.remember === undefined) return;
  state.remember = (added) => memory.remember?.(context, added) ?? Promise.resolve();
  state.rememberFrom = from;
}

/**
 * A run's memory, started: what it recalled, and how the run's state gives it its new messages
 * once completed (from position `from`). `undefined` for an agent without memory. Internal.
 */
export async function startMemory<Deps>(
  memory: AgentMemory | undefined,
  run: RunSettings<Deps>,
  prompt: string,
  history: readonly Message[],
  store: RunStore | undefined,
): Promise<
  | { recalled: string | undefined; attach: (state: RunProgress<Deps>, from: number) => void }
  | undefined
> {
  if (memory === undefined) return undefined;
  const context = memoryContext(run, prompt, history, store);
  const recalled = await recallFor(memory, context);
  return {
    recalled,
    attach: (state, from) => {
      rememberWith(state, memory, context, from);
    },
  };
}

/** `system` with the recalled text as its last block. Internal. */
export function withRecalled(system: string, recalled: string | undefined): string {
  if (recalled === undefined) return system;
  return system === '' ? recalled : `${system}\n\n${recalled}`;
}
