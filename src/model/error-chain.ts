/**
 * Every error reachable from `error`, pre-order: the error itself, then the members of an
 * `AggregateError`, then its `cause`. Cycles are visited once. `stopAt` marks errors (other than
 * the first) whose causes are not descended into.
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
    if (typeof current !== 'object' || (current !== error && options.stopAt?.(current) === true))
      continue;
    const children: unknown[] = [];
    if (current instanceof AggregateError) children.push(...(current.errors as unknown[]));
    if ('cause' in current) children.push((current as { cause?: unknown }).cause);
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
