import type { Delta } from '../contract/delta';
import { describeError } from '../kit/error-base';
import { isErrorValue } from '../kit/safe-inspect';
import { parsePartialJson } from '../output/partial-json';
import { StreamAbandonedError } from './delta-stream';
import { StreamedText } from './streamed-text';

/**
 * `T` with every property optional, recursively: the shape of a structured output while it
 * streams. Arrays hold partial elements; strings may be unfinished; numbers and booleans appear
 * only once finished.
 */
export type DeepPartial<T> = T extends
  | string
  | number
  | boolean
  | bigint
  | symbol
  | null
  | undefined
  | Date
  | ((...args: never[]) => unknown)
  ? T
  : T extends readonly (infer E)[]
    ? DeepPartial<E>[]
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> }
      : T;

/** Where a run's output streams from. Internal. */
export type PartialOutputSource =
  | { readonly kind: 'json' } // native structured output: the answer text is JSON
  | { readonly kind: 'tool'; readonly name: string } // tool mode: the output tool's arguments
  | { readonly kind: 'text' }; // plain text: the answer text so far

/**
 * The partial outputs of one streaming run, pulled by a `for await` consumer. The answer text is
 * the run stream's record of the current model call ({@link StreamedText}, which the run stream
 * keeps anyway); the output tool's arguments are taken from the fragments the run pushes. The
 * JSON is parsed when the consumer asks for the next snapshot, so a slow consumer sees the latest
 * snapshot (they coalesce), and nobody reading costs nothing: the run pushes fragments only once
 * the feed is read (`takesDeltas`), except for an output tool's. A snapshot is yielded only when
 * it differs from the last one; each model turn starts over; the validated output comes last. A
 * consumer that stops makes the run end (as for deltas). Internal: exposed as
 * `RunStream.partialOutput`.
 */
export class PartialOutputFeed<Output> implements AsyncIterable<DeepPartial<Output>> {
  /** The output tool's arguments so far (tool mode). */
  private readonly args = new StreamedText();
  private outputIndex: number | undefined;
  private version = 0;
  private seen = -1;
  private lastShown: string | undefined;
  private final: { readonly output: Output } | undefined;
  private closed = false;
  private abandoned = false;
  private iterated = false;
  private waiting: (() => void) | undefined;
  /**
   * Whether the run must `push` every fragment: the feed is read (or was), or the output is a
   * tool's arguments (taken from the fragments).
   */
  takesDeltas: boolean;

  /**
   * `answer`: the current model call's streamed text, which the run stream records (and clears
   * on `model_start`, after `turnStarted`). `onAbandon` runs once when the consumer stops early
   * (the run stream aborts the run).
   */
  constructor(
    private readonly source: PartialOutputSource,
    private readonly answer: StreamedText,
    private readonly onAbandon: () => void = () => undefined,
  ) {
    this.takesDeltas = source.kind === 'tool';
  }

  /** A model call starts: what the previous turn streamed is not the output. */
  turnStarted(): void {
    if (this.source.kind !== 'tool') {
      if (!this.answer.empty) this.changed();
      return;
    }
    if (this.args.empty && this.outputIndex === undefined) return;
    this.args.clear();
    this.outputIndex = undefined;
    this.changed();
  }

  /**
   * Takes one fragment (once `takesDeltas`); throws `StreamAbandonedError` once the consumer has
   * stopped.
   */
  push(delta: Delta): void {
    if (this.abandoned) throw new StreamAbandonedError();
    if (this.closed) return;
    if (this.source.kind === 'tool') this.takeToolFragments(delta, this.source.name);
    else if (delta.content !== undefined && delta.content !== '') this.changed();
  }

  /** The run ended: with its validated output, or without one (failed or paused). */
  finish(final: { readonly output: Output } | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.final = final;
    this.changed();
  }

  [Symbol.asyncIterator](): AsyncIterator<DeepPartial<Output>> {
    if (this.iterated) throw new TypeError('partialOutput can be iterated once');
    this.iterated = true;
    this.takesDeltas = true;
    return {
      next: () => this.next(),
      return: () => {
        this.abandon();
        return Promise.resolve({ value: undefined, done: true });
      },
      throw: (error: unknown) => {
        this.abandon();
        return Promise.reject(isErrorValue(error) ? error : new Error(describeError(error)));
      },
    };
  }

  private async next(): Promise<IteratorResult<DeepPartial<Output>>> {
    for (;;) {
      if (this.abandoned) return { value: undefined, done: true };
      if (this.seen !== this.version) {
        this.seen = this.version;
        const snapshot = this.snapshot();
        if (snapshot !== undefined) return { value: snapshot as DeepPartial<Output>, done: false };
      }
      if (this.closed) {
        const final = this.final;
        this.final = undefined;
        if (final === undefined) return { value: undefined, done: true };
        return { value: final.output as DeepPartial<Output>, done: false };
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  /** The current partial value when it differs from the last one shown, else `undefined`. */
  private snapshot(): unknown {
    if (this.closed && this.final !== undefined) return undefined; // the final output supersedes
    const value = this.source.kind === 'text' ? this.answer.text() || undefined : this.parse();
    if (value === undefined) return undefined;
    const shown = JSON.stringify(value);
    if (shown === this.lastShown) return undefined;
    this.lastShown = shown;
    return value;
  }

  private parse(): unknown {
    const text = this.source.kind === 'tool' ? this.args.text() : this.answer.text();
    return text === '' ? undefined : parsePartialJson(text)?.value;
  }

  private takeToolFragments(delta: Delta, name: string): void {
    for (const fragment of delta.toolCalls ?? []) {
      if (fragment.name !== undefined) {
        // A call's first fragment names it: the output call starts, or another call takes the slot.
        if (fragment.name === name) {
          this.outputIndex = fragment.index;
          this.args.clear();
          this.args.add(fragment.argsFragment);
          this.changed();
        } else if (fragment.index === this.outputIndex) {
          this.outputIndex = undefined;
        }
      } else if (fragment.index === this.outputIndex) {
        const args = fragment.argsFragment;
        if (args !== undefined && args !== '') {
          this.args.add(args);
          this.changed();
        }
      }
    }
  }

  private changed(): void {
    this.version++;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  private abandon(): void {
    if (!this.closed) {
      this.abandoned = true;
      this.onAbandon();
    }
    this.closed = true;
    this.changed();
  }
}
