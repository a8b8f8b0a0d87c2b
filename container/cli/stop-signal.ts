/** Resolves at the first SIGINT or SIGTERM: when a serving command (`mcp`, `a2a`) should stop. */
export function stopSignal(): Promise<void> {
  return new Promise((resolveStop) => {
    process.once('SIGINT', () => {
      resolveStop();
    });
    process.once('SIGTERM', () => {
      resolveStop();
    });
  });
}
