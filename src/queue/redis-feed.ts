import type { Redis } from 'ioredis';
import type { FeedEntry, RunFeedEvent } from './feed-events';
import type { RunFeedPort } from './port';
import type { QueueKeys } from './redis';
import type { SharedSubscriber } from './subscriber';

/**
 * Appends the events of one or more runs atomically, each run's in order. KEYS are three per run
 * (its stream, sequence counter and cancellation marker); ARGV[1] is the stream length kept (about),
 * ARGV[2] the expiry in ms, then for each run the number of its events and the events. Each event
 * gets the run's next sequence number (reserved for the batch with one INCRBY), is added to the
 * run's stream (XADD) and published as `<id> <seq> <json>` on the stream's own name — so a live
 * listener and a reader of the backlog see the same ids; then both keys' expiry is renewed.
 * Returns each run's cancellation reason, or nil.
 */
const APPEND = `
local out = {}
local a = 3
for r = 1, #KEYS / 3 do
  local stream, seq = KEYS[3 * r - 2], KEYS[3 * r - 1]
  local count = tonumber(ARGV[a])
  a = a + 1
  local n = redis.call('INCRBY', seq, count) - count
  for i = 1, count do
    n = n + 1
    local id = redis.call('XADD', stream, 'MAXLEN', '~', ARGV[1], '*', 'n', n, 'e', ARGV[a])
    redis.call('PUBLISH', stream, id .. ' ' .. n .. ' ' .. ARGV[a])
    a = a + 1
  end
  redis.call('PEXPIRE', stream, ARGV[2])
  redis.call('PEXPIRE', seq, ARGV[2])
  out[r] = redis.call('GET', KEYS[3 * r])
end
return out`;

/** The script as ioredis defines it: the number of keys first. */
interface AppendCommand {
  golemFeedAppends(numberOfKeys: number, ...args: (string | number)[]): Promise<(string | null)[]>;
}

/** One run's events to append. */
interface FeedBatch {
  readonly runId: string;
  readonly events: readonly RunFeedEvent[];
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
    /** Called just before each append is sent (the worker holds its socket's writes). */
    private readonly beforeSend?: () => void,
  ) {
    this.maxLength = retention.maxLength ?? 10_000;
    this.ttlMs = retention.ttlMs ?? 86_400_000;
    if (typeof (redis as unknown as Partial<AppendCommand>).golemFeedAppends !== 'function')
      redis.defineCommand('golemFeedAppends', { lua: APPEND });
  }

  /** Sends the append at once (no await before the command): its place on the connection is now. */
  append(runId: string, events: readonly RunFeedEvent[]): Promise<string | undefined> {
    const [result] = this.appendMany([{ runId, events }]);
    return result ?? Promise.resolve(undefined);
  }

  /**
   * Every run's batch in one script call (one command, one round trip), sent at once. A batch that
   * does not serialise (an event that is not JSON) fails alone; the others are sent.
   */
  appendMany(batches: readonly FeedBatch[]): Promise<string | undefined>[] {
    const keys: string[] = [];
    const args: (string | number)[] = [this.maxLength, this.ttlMs];
    const slots: (number | Error)[] = [];
    for (const { runId, events } of batches) {
      let json: string[];
      try {
        json = events.map((event) => JSON.stringify(event));
      } catch (error) {
        slots.push(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      slots.push(keys.length / 3);
      keys.push(this.keys.feed(runId), this.keys.feedSeq(runId), this.keys.cancel(runId));
      args.push(json.length, ...json);
    }
    if (keys.length > 0) this.beforeSend?.();
    const sent =
      keys.length === 0
        ? Promise.resolve([])
        : (this.redis as unknown as AppendCommand).golemFeedAppends(keys.length, ...keys, ...args);
    return slots.map((slot) =>
      typeof slot === 'number' ? sent.then((all) => all[slot] ?? undefined) : Promise.reject(slot),
    );
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
