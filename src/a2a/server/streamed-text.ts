import type { Artifact } from '../wire-types';
import { publishChunk, type TaskRecord } from './task-registry';

/**
 * The output artifact of a task whose agent streams text: each fragment is published as a chunk
 * of one artifact (`append` after the first, `lastChunk: false`), one fragment behind so that the
 * last one can carry `lastChunk: true`; the task itself holds the whole text so far. Internal.
 */
export class StreamedText {
  private held: string | undefined;
  private text = '';
  private sent = 0;

  constructor(
    private readonly record: TaskRecord,
    private readonly artifactId: string,
  ) {}

  /** A text fragment of the answer. */
  push(fragment: string): void {
    if (fragment === '') return;
    if (this.held !== undefined) this.flush(this.held, false);
    this.held = fragment;
  }

  /**
   * Ends the artifact with the run's text output: the held fragment as the last chunk when the
   * fragments spell the output, else (no text streamed, or text of several turns) the output
   * replacing what was sent (`append: false`, `lastChunk: true`).
   */
  finish(output: string): void {
    const held = this.held;
    this.held = undefined;
    if (held !== undefined && this.text + held === output) {
      this.flush(held, true);
      return;
    }
    const whole = this.artifact(output);
    publishChunk(this.record, whole, whole, { append: false, lastChunk: true });
  }

  /** Drops the partial artifact from the task (the run paused or failed: it has no output). */
  discard(): void {
    this.held = undefined;
    const index = this.record.artifacts.findIndex((a) => a.artifactId === this.artifactId);
    if (index !== -1) this.record.artifacts.splice(index, 1);
  }

  private flush(chunk: string, last: boolean): void {
    this.text += chunk;
    publishChunk(this.record, this.artifact(this.text), this.artifact(chunk), {
      append: this.sent > 0,
      lastChunk: last,
    });
    this.sent += 1;
  }

  private artifact(text: string): Artifact {
    return { artifactId: this.artifactId, name: 'output', parts: [{ text }] };
  }
}
