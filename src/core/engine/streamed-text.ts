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

/** Delta handlers that keep the current model call's streamed text themselves, with it. */
const records = new WeakMap<DeltaHandler, StreamedText>();

/**
 * Declares that `handler` adds the text of every fragment it is given to `text`, cleared when a
 * model call starts (on its `model_start` event): the engine reads the text of a call that fails
 * from there instead of keeping a copy (a run stream's handler keeps it for `partialOutput`).
 * Internal.
 */
export function recordsStreamedText(handler: DeltaHandler, text: StreamedText): void {
  records.set(handler, text);
}

/** What {@link recordsStreamedText} declared for `handler`, if anything. Internal. */
export function streamedTextOf(handler: DeltaHandler): StreamedText | undefined {
  return records.get(handler);
}
