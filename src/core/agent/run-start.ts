import { RunInputError } from '../engine/errors';
import type { HistoryProcessor } from '../engine/history-processor';
import type { Instructions, RunContext } from '../engine/instructions';
import { resolveInstructions } from '../engine/instructions';
import { assembleMessages } from '../engine/assemble';
import type { RunSettings } from '../engine/run-config';
import { validateHistory, validatePromptParts } from '../engine/validate-input';
import type { SignalSource } from '../engine/run-signal';
import { scoped } from '../engine/run-signal';
import { withRecalled } from './memory-run';
import { withLazySignal } from '../engine/lazy-signal';
import { describeError } from '../kit/error-base';
import { isArrayValue } from '../kit/guards';
import { isCheckedHistory } from '../engine/checked-history';
import type { Message } from '../contract/message';
import { cloneMessage } from '../contract/message';
import type { Part } from '../contract/part';

/**
 * Copies the history and runs the history processor on the copy (spec §4.1 steps 1–2). A
 * checked history (see `Agent.history`) is used as it is when there is no processor: it cannot
 * change. Synchronous without a processor. Internal.
 */
export function processHistory(
  processor: HistoryProcessor | undefined,
  history: readonly Message[],
  run: SignalSource,
): readonly Message[] | Promise<Message[]> {
  if (!isArrayValue(history)) throw new RunInputError('history must be an array of messages');
  if (processor === undefined) {
    if (history.length === 0) return [];
    if (isCheckedHistory(history)) return history;
  }
  const copy = history.map((m) =>
    typeof m === 'object' && (m as unknown) !== null ? cloneMessage(m) : m,
  );
  if (processor === undefined) return copy;
  return processed(processor, copy, run);
}

/** The history processor's answer over the run's copy of the history. */
async function processed(
  processor: HistoryProcessor,
  copy: Message[],
  run: SignalSource,
): Promise<Message[]> {
  try {
    const result = await processor(copy, withLazySignal({}, run));
    if (result === undefined || result === null) return [];
    if (!isArrayValue(result))
      throw new TypeError('it returned something other than an array of messages');
    return result;
  } catch (cause) {
    throw new RunInputError(`history processor failed: ${describeError(cause)}`, { cause });
  }
}

/**
 * The first request's messages (spec §4.1 step 5): the resolved instructions as the one system
 * message, the repaired history without its system messages, then the prompt. Internal.
 */
export async function buildMessages<Deps>(
  instructions: Instructions<Deps> | undefined,
  run: RunSettings<Deps>,
  history: readonly Message[],
  prompt: string,
  parts: readonly Part[],
  recalled?: string,
): Promise<Message[]> {
  const system = await instructionsText(instructions, run);
  return firstMessages(
    recalled === undefined ? system : withRecalled(system, recalled),
    history,
    prompt,
    parts,
  );
}

/** {@link buildMessages} once the system text is known (synchronous). Internal. */
export function firstMessages(
  system: string,
  history: readonly Message[],
  prompt: string,
  parts: readonly Part[],
): Message[] {
  return assembleMessages(system, history, promptMessage(prompt, parts));
}

/** The instructions as text for this run; static text needs no resolution (the common case). Internal. */
export function instructionsText<Deps>(
  instructions: Instructions<Deps> | undefined,
  run: RunSettings<Deps>,
): string | Promise<string> {
  return typeof instructions === 'string'
    ? instructions
    : resolveInstructions(instructions, instructionsContext(run));
}

/** The user message of `prompt` and its `parts`. Internal. */
export function promptMessage(prompt: string, parts: readonly Part[]): Message {
  const user: Message = { role: 'user', content: prompt };
  if (parts.length > 0) user.parts = [...parts];
  return user;
}

/** What instructions functions receive; the run's signal is read (or created) when they read it. */
function instructionsContext<Deps>(run: RunSettings<Deps>): RunContext<Deps> {
  return withLazySignal(scoped({ deps: run.deps }, run), run);
}

/** What `start` hands on: the run's settings, its history as the run uses it, its parts. Internal. */
export interface StartedRun<Deps> {
  run: RunSettings<Deps>;
  processed: readonly Message[];
  parts: readonly Part[];
}

/** The history and prompt parts checked (spec §4.1 step 3); the run released on a failure. Internal. */
export function checkedStart<Deps>(
  run: RunSettings<Deps>,
  processed: readonly Message[],
  given: readonly Part[] | undefined,
): StartedRun<Deps> {
  try {
    const parts: readonly Part[] = given ?? [];
    if (!isArrayValue(parts)) throw new RunInputError('parts must be an array of image parts');
    validatePromptParts(parts);
    if (!isCheckedHistory(processed)) validateHistory(processed);
    return { run, processed, parts };
  } catch (error) {
    run.release(error);
    throw error;
  }
}
