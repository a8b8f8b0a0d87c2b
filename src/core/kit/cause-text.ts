import { describeError } from './safe-inspect';

/** What every `RunError` message starts with; no other Golem error message carries it. */
export const RUN_ERROR_PREFIX = 'golem: ';

/**
 * The text of `cause` for embedding in another error's message, so a message reads
 * once-prefixed however deep the chain: {@link describeError}, without the leading `golem: ` of a
 * nested `RunError` (a sub-agent run inside a tool, say). With `stage`, a leading `<stage> stage: `
 * that would repeat the wrapper's own stage is dropped too. Never throws.
 */
export function causeText(cause: unknown, stage?: string): string {
  let text = describeError(cause);
  if (text.startsWith(RUN_ERROR_PREFIX)) text = text.slice(RUN_ERROR_PREFIX.length);
  const repeated = stage === undefined ? undefined : `${stage} stage: `;
  if (repeated !== undefined && text.startsWith(repeated)) text = text.slice(repeated.length);
  return text;
}
