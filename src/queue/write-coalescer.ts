import type { Redis } from 'ioredis';

/** The part of a socket {@link WriteCoalescer} uses. */
interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * Holds a Redis connection's socket writes until the current turn of the event loop ends, so the
 * commands sent meanwhile — a run's feed append and the job engine's completion that follows it a
 * few promise steps later — leave in one write (one system call) instead of one each. Order is
 * untouched (a corked socket keeps its writes in order) and nothing waits: the writes go out in the
 * check phase of the same loop iteration (`setImmediate`; the loop does not block for I/O while an
 * immediate is pending). A connection that is not ready (commands queued offline) is left alone.
 * Internal.
 */
export class WriteCoalescer {
  private held: Corkable | undefined;

  constructor(private readonly redis: Redis) {}

  /** Corks the socket until this turn ends (once per turn). */
  hold(): void {
    if (this.held !== undefined || this.redis.status !== 'ready') return;
    const stream = (this.redis as unknown as { stream?: Partial<Corkable> }).stream;
    if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') return;
    const socket = stream as Corkable;
    socket.cork();
    this.held = socket;
    setImmediate(() => {
      this.held = undefined;
      socket.uncork();
    });
  }
}
