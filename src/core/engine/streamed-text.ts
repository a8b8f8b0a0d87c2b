import type { DeltaHandler } from '../contract/model';

/**
 * The answer text a model call has streamed so far, kept as its fragments and joined only when
 * read (then kept joined): an array slot per fragment, where appending to a string would make a
 * string per fragment that lives — and is copied by every young-generation collection — until
 * the call ends. Internal.
 */
export class StreamedText {
  /**
   * The text joined so far, then the fragments since. Made with a string in it, so the array
   * holds strings from the start and adding one stays on the compiler's fast path (an empty
   * array literal starts out as one of small integers: the first string changes its kind, and
   * pushes onto it are then compiled as calls).
   */
  private parts: string[] = [''];

  /** Adds a fragment's text (nothing for none, or an empty one). */
  add(content: string | undefined): void {
    if (content !== undefined && content !== '') this.parts.push(content);
  }

  /** No text yet. */
  get empty(): boolean {
    return this.parts.length === 1 && this.parts[0] === '';
  }

  /** The text so far. */
  text(): string {
    const parts = this.parts;
    if (parts.length > 1) this.parts = [parts.join('')];
    return this.parts[0] as string;
  }

  /** Starts over (a new model call). */
  clear(): void {
    if (!this.empty) this.parts = [''];
  }
}

/**
 * Where a delta handler that records its call's text keeps the record: a property of the handler
 * under a symbol of this module's own. Not a module-level `WeakMap`: such a map lives in the old
 * generation, and to a young-generation collection the values of its entries are roots (only a
 * full collection drops an entry whose key died), so each run's record — its fragments array
 * included — outlived the young collections and was promoted (a `for await` reader of 2,000-delta
 * run streams: 0.125 → 0.094 µs per delta, 21.6 → 5.4 KB promoted per young collection;
 * bench/RESULTS.md, issue 35).
 */
const RECORD: unique symbol = Symbol('golem.streamedText');

/** A delta handler that may carry its call's text record. */
type RecordingHandler = DeltaHandler & { [RECORD]?: StreamedText };

/**
 * Declares that `handler` adds the text of every fragment it is given to `text`, cleared when a
 * model call starts (on its `model_start` event): the engine reads the text of a call that fails
 * from there instead of keeping a copy (a run stream's handler keeps it for `partialOutput`).
 * Internal.
 */
export function recordsStreamedText(handler: DeltaHandler, text: StreamedText): void {
  (handler as RecordingHandler)[RECORD] = text;
}

/** What {@link recordsStreamedText} declared for `handler`, if anything. Internal. */
export function streamedTextOf(handler: DeltaHandler): StreamedText | undefined {
  return (handler as RecordingHandler)[RECORD];
}
