import { safeArray, safeGet, safeHas, safeInstanceOf } from './safe-inspect';

/**
 * Every error reachable from `error`, pre-order: the error itself, then the members of an
 * `AggregateError`, then its `cause`. Cycles are visited once. `stopAt` marks errors (other than
 * the first) whose causes are not descended into. Never throws: a member list or `cause` that
 * cannot be read (a throwing getter, a revoked proxy) is not descended into, but the value itself
 * is still yielded.
 */
export function* errorChain(
  error: unknown,
  options: { stopAt?: (value: unknown) => boolean } = {},
): Generator<unknown, void, undefined> {
  const seen = new Set<unknown>();
  const stack: unknown[] = [error];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === undefined || current === null || seen.has(current)) continue;
    seen.add(current);
    yield current;
    if (typeof current !== 'object') continue;
    if (current !== error && options.stopAt?.(current) === true) continue;
    const children: unknown[] = [];
    if (safeInstanceOf(current, AggregateError))
      children.push(...safeArray(safeGet(current, 'errors')));
    if (safeHas(current, 'cause')) children.push(safeGet(current, 'cause'));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/** The first error in the chain of `error` (pre-order) that satisfies `guard`. */
export function findError<T>(
  error: unknown,
  guard: (value: unknown) => value is T,
  options: { stopAt?: (value: unknown) => boolean } = {},
): T | undefined {
  for (const candidate of errorChain(error, options)) if (guard(candidate)) return candidate;
  return undefined;
}
