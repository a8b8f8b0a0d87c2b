/** One problem the app shows in its banner. */
export interface AppProblem {
  readonly id: number;
  readonly message: string;
}

type Listener = (problem: AppProblem | undefined) => void;

let current: AppProblem | undefined;
let nextId = 1;
const listeners = new Set<Listener>();

/** Shows `message` in the error banner (replacing what it showed). Never pass secrets. */
export function reportProblem(message: string): void {
  current = { id: nextId++, message };
  for (const listener of listeners) listener(current);
}

/** Hides the banner. */
export function clearProblem(): void {
  current = undefined;
  for (const listener of listeners) listener(undefined);
}

/** The problem shown now, if any. */
export function currentProblem(): AppProblem | undefined {
  return current;
}

/** Calls `listener` whenever the banner changes; returns the unsubscribe function. */
export function onProblem(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
