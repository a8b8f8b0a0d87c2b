/** Everything about an error a user or a log could print: messages, bodies, codes, causes. */
export function visibleText(error: unknown): string {
  const seen = new Set<unknown>();
  const out: string[] = [];
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const e = current as Record<string, unknown>;
    for (const key of ['message', 'body', 'code', 'name', 'stack', 'location'])
      if (typeof e[key] === 'string') out.push(e[key]);
    out.push(JSON.stringify(current, Object.getOwnPropertyNames(current)));
    current = e.cause;
  }
  return out.join('\n');
}
