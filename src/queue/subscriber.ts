import type { Redis } from 'ioredis';

/** Receives one published message. */
export type MessageListener = (message: string) => void;

/**
 * One Redis pub/sub connection shared by every listener of a process: channels are subscribed on
 * first use and unsubscribed when their last listener leaves. ioredis re-subscribes after a
 * reconnect by itself. Internal.
 */
export class SharedSubscriber {
  private client: Redis | undefined;
  private readonly listeners = new Map<string, Set<MessageListener>>();

  constructor(private readonly open: () => Redis) {}

  /** Listens on `channel`; resolves once Redis confirmed the subscription, with the undo. */
  async listen(channel: string, listener: MessageListener): Promise<() => Promise<void>> {
    const client = this.connection();
    let set = this.listeners.get(channel);
    const first = set === undefined;
    if (set === undefined) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    if (first) await client.subscribe(channel);
    return async () => {
      const current = this.listeners.get(channel);
      if (current?.delete(listener) !== true || current.size > 0) return;
      this.listeners.delete(channel);
      if (this.client !== undefined) await this.client.unsubscribe(channel).catch(() => undefined);
    };
  }

  /** The connection, or undefined if none was opened. */
  get connected(): Redis | undefined {
    return this.client;
  }

  /** Forgets every listener; the caller closes the connection. */
  clear(): void {
    this.listeners.clear();
  }

  private connection(): Redis {
    if (this.client !== undefined) return this.client;
    const client = this.open();
    client.on('message', (channel: string, message: string) => {
      for (const listener of [...(this.listeners.get(channel) ?? [])]) {
        try {
          listener(message);
        } catch {
          // A listener's failure never affects the others.
        }
      }
    });
    this.client = client;
    return client;
  }
}
