import type { Redis } from 'ioredis';
import type { FeedEntry, RunFeedEvent } from './feed-events';
import type { RunFeedPort } from './port';
import type { QueueKeys } from './redis';
import type { SharedSubscriber } from './subscriber';

/**
 * Appends events atomically, in order: for each (ARGV[3…]) the next sequence number, XADD to the
 * run's stream (trimmed to about ARGV[1] entries) and PUBLISH of `<id> <seq> <json>` on the
 * stream's own name — so a live listener and a reader of the backlog see the same ids; then both
 * keys' expiry (ARGV[2] ms) is renewed. Returns the run's cancellation reason (KEYS[3]), if any.
 */
const APPEND = `
local id, n
for i = 3, #ARGV do
  n = redis.call('INCR', KEYS[2])
  id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'n', n, 'e', ARGV[i])
  redis.call('PUBLISH', KEYS[1], id .. ' ' .. n .. ' ' .. ARGV[i])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return redis.call('GET', KEYS[3])`;

interface AppendCommand {
  golemFeedAppend(
    stream: string,
    seq: string,
    cancel: string,
    maxLength: number,
    ttlMs: number,
    ...events: string[]
  ): Promise<string | null>;
}

/** How long and how much of a run's feed Redis keeps. */
export interface FeedRetention {
  /** Entries kept per run (approximately; older ones are trimmed). Default 10 000. */
  maxLength?: number;
  /** How long a run's feed lives after its last entry, ms. Default 86 400 000 (a day). */
  ttlMs?: number;
}

/** The cursor of an entry: the stream id and the sequence number. */
export function cursorOf(id: string, seq: number): string {
  return `${id}/${seq}`;
}

/** The stream id and sequence number of a cursor (undefined parts when it is malformed). */
export function parseCursor(cursor: string | undefined): { id?: string; seq?: number } {
  if (cursor === undefined) return {};
  const match = /^(\d+-\d+)\/(\d+)$/.exec(cursor);
  if (match === null) return {};
  return { id: match[1], seq: Number(match[2]) };
}

function entry(id: string, seq: number, json: string): FeedEntry | undefined {
  try {
    return { cursor: cursorOf(id, seq), seq, event: JSON.parse(json) as RunFeedEvent };
  } catch {
    return undefined;
  }
}

/** Run feeds as Redis streams, with live delivery over pub/sub. Internal. */
export class RedisFeed implements RunFeedPort {
  private readonly maxLength: number;
  private readonly ttlMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly keys: QueueKeys,
    private readonly subscriber: SharedSubscriber,
    retention: FeedRetention = {},
  ) {
    this.maxLength = retention.maxLength ?? 10_000;
    this.ttlMs = retention.ttlMs ?? 86_400_000;
    if (typeof (redis as unknown as Partial<AppendCommand>).golemFeedAppend !== 'function')
      redis.defineCommand('golemFeedAppend', { numberOfKeys: 3, lua: APPEND });
  }

  async append(runId: string, events: readonly RunFeedEvent[]): Promise<string | undefined> {
    const cancelled = await (this.redis as unknown as AppendCommand).golemFeedAppend(
      this.keys.feed(runId),
      this.keys.feedSeq(runId),
      this.keys.cancel(runId),
      this.maxLength,
      this.ttlMs,
      ...events.map((event) => JSON.stringify(event)),
    );
    return cancelled ?? undefined;
  }

  async read(runId: string, after?: string): Promise<FeedEntry[]> {
    const { id } = parseCursor(after);
    const start = id === undefined ? '-' : `(${id}`;
    const rows = await this.redis.xrange(this.keys.feed(runId), start, '+');
    const out: FeedEntry[] = [];
    for (const [streamId, fields] of rows) {
      const n = fields[fields.indexOf('n') + 1];
      const e = fields[fields.indexOf('e') + 1];
      if (n === undefined || e === undefined) continue;
      const parsed = entry(streamId, Number(n), e);
      if (parsed !== undefined) out.push(parsed);
    }
    return out;
  }

  listen(runId: string, onEntry: (entry: FeedEntry) => void): Promise<() => Promise<void>> {
    return this.subscriber.listen(this.keys.feed(runId), (message) => {
      const first = message.indexOf(' ');
      const second = message.indexOf(' ', first + 1);
      if (first < 0 || second < 0) return;
      const parsed = entry(
        message.slice(0, first),
        Number(message.slice(first + 1, second)),
        message.slice(second + 1),
      );
      if (parsed !== undefined) onEntry(parsed);
    });
  }
}
