import type { FeedEntry } from './feed-events';
import { FINISHED_TYPES, SETTLED_TYPES } from './feed-events';
import type { RunFeedPort } from './port';
import { parseCursor } from './redis-feed';

/** How `queue.events(runId, options)` reads a run's feed. */
export interface FeedReadOptions {
  /** Continue after this cursor (an entry's `cursor`, e.g. the SSE `Last-Event-ID`). */
  after?: string;
  /**
   * Stop after the run is `settled` (default: completed, failed, cancelled — or paused, waiting
   * for a decision) or `finished` (keep reading through pauses and their resumes).
   */
  until?: 'settled' | 'finished';
  /** Stops reading (the iteration ends quietly). */
  signal?: AbortSignal;
  /**
   * Wait for a run that is not known yet — its id chosen by you (`enqueue(…, { runId })`), read
   * before it is enqueued — instead of failing with `not-found`. Default false.
   */
  waitForStart?: boolean;
}

/**
 * Every entry of a run's feed after `after`: first the backlog kept in Redis, then live entries as
 * workers append them, in order and without duplicates (the live listener starts before the
 * backlog is read, and entries are ordered by their sequence numbers). Trimmed entries show up as
 * one `gap`. When the feed holds nothing (expired, or the run ended before any feed existed),
 * `settledFromStore` describes the run from the store; it throws when the run is unknown. Internal.
 */
export async function* readFeed(
  feed: RunFeedPort,
  runId: string,
  options: FeedReadOptions,
  settledFromStore: () => Promise<FeedEntry | undefined>,
): AsyncGenerator<FeedEntry, void, undefined> {
  const stopTypes = options.until === 'finished' ? FINISHED_TYPES : SETTLED_TYPES;
  const live: FeedEntry[] = [];
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const signal = options.signal;
  const stopped = (): boolean => signal?.aborted === true;
  if (stopped()) return;
  signal?.addEventListener('abort', notify, { once: true });
  const unlisten = await feed.listen(runId, (entry) => {
    live.push(entry);
    notify();
  });
  try {
    let last = parseCursor(options.after);
    let lastCursor = options.after ?? '0-0/0';
    const pending = await feed.read(runId, options.after);
    if (pending.length === 0 && live.length === 0) {
      const stored = await settledFromStore();
      if (stored !== undefined && stopTypes.has(stored.event.type)) {
        yield stored;
        return;
      }
    }
    for (;;) {
      if (stopped()) return;
      const next = pending.shift() ?? live.shift();
      if (next === undefined) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      const at = parseCursor(next.cursor);
      if (last.id !== undefined && at.id !== undefined && !newer(at.id, last.id)) continue;
      // Sequence numbers restart when an expired feed is written again; count gaps within one.
      const lastSeq = last.seq ?? 0;
      if (next.seq > lastSeq + 1 && (lastSeq > 0 || options.after === undefined))
        yield {
          cursor: lastCursor,
          seq: lastSeq,
          event: { type: 'gap', missed: next.seq - lastSeq - 1 },
        };
      last = at;
      lastCursor = next.cursor;
      yield next;
      if (stopTypes.has(next.event.type)) return;
    }
  } finally {
    signal?.removeEventListener('abort', notify);
    await unlisten();
  }
}

/** Whether stream id `a` (`ms-n`) comes after `b`. */
function newer(a: string, b: string): boolean {
  const [am = 0, an = 0] = a.split('-').map(Number);
  const [bm = 0, bn = 0] = b.split('-').map(Number);
  return am > bm || (am === bm && an > bn);
}
