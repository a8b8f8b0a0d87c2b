import type { UIMessageChunk } from './chunk-types';
import type { ChunkSink } from './chunk-mapper';

/** `n` empty slots, in a packed array (no holes: every read stays on the fast path). */
function slots(n: number): (UIMessageChunk | undefined)[] {
  const items: (UIMessageChunk | undefined)[] = [];
  for (let i = 0; i < n; i++) items.push(undefined);
  return items;
}

/**
 * The chunks made and not yet handed out, first in first out: a ring that grows only when full,
 * so a reader that keeps one chunk behind (the usual case) reuses a few slots for the whole run.
 * Internal.
 */
export class ChunkBuffer implements ChunkSink {
  private items = slots(8);
  private head = 0;
  size = 0;

  push(chunk: UIMessageChunk): void {
    const items = this.items;
    const capacity = items.length;
    if (this.size === capacity) {
      this.grow();
      this.push(chunk);
      return;
    }
    items[(this.head + this.size) & (capacity - 1)] = chunk;
    this.size += 1;
  }

  /** The first chunk, if any. */
  shift(): UIMessageChunk | undefined {
    if (this.size === 0) return undefined;
    const items = this.items;
    const head = this.head;
    const chunk = items[head];
    items[head] = undefined;
    this.head = (head + 1) & (items.length - 1);
    this.size -= 1;
    return chunk;
  }

  clear(): void {
    while (this.size > 0) this.shift();
  }

  /** Drops the chunks pushed after the buffer held `size` (an event whose mapping failed). */
  truncate(size: number): void {
    const items = this.items;
    while (this.size > size) {
      this.size -= 1;
      items[(this.head + this.size) & (items.length - 1)] = undefined;
    }
  }

  /** Doubles the ring, its chunks first. */
  private grow(): void {
    const items = this.items;
    const grown = slots(items.length * 2);
    for (let i = 0; i < this.size; i++) grown[i] = items[(this.head + i) & (items.length - 1)];
    this.items = grown;
    this.head = 0;
  }
}
