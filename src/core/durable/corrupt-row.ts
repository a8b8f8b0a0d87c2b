import { quote, StoreError } from './store-error';

/** A `corrupt` StoreError naming the stored run or conversation and the problem. Internal. */
export function corrupt(what: string, id: string, problem: string, cause?: unknown): StoreError {
  const subject = `${what === 'run' ? 'run' : 'conversation'} ${quote(id)}`;
  return new StoreError(
    `stored ${subject} is unreadable: ${problem}; nothing was changed — repair or delete the row`,
    {
      reason: 'corrupt',
      ...(what === 'run' ? { runId: id } : { conversationId: id }),
      ...(cause !== undefined && { cause }),
    },
  );
}
