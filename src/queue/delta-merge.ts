import type { Delta } from '../core/contract/delta';
import type { RunFeedEvent } from './feed-events';

/**
 * The most text (UTF-16 code units) one merged feed delta carries: a fragment that would take a
 * merged delta past it starts the next feed event instead (a fragment larger on its own is sent as
 * it came, never split).
 */
export const MERGED_TEXT_MAX = 16_384;

/** What kind of fragment a delta is, when it can be merged with its neighbours. */
const CONTENT = 1;
const THINKING = 2;
const CALL = 3;

/** A value's property, read without a type. */
function field(value: object, key: string): unknown {
  return (value as Record<string, unknown>)[key];
}

/** Whether every defined (enumerable) property of `value` is one of `a`, `b`. */
function only(value: object, a: string, b: string): boolean {
  for (const key in value)
    if (key !== a && key !== b && field(value, key) !== undefined) return false;
  return true;
}

/** The sole element of an array of one object, or undefined. */
function sole(list: unknown): object | undefined {
  if (!Array.isArray(list) || list.length !== 1) return undefined;
  const item: unknown = list[0];
  return typeof item === 'object' && item !== null ? item : undefined;
}

/**
 * The text of `delta` when it continues a reasoning block or a tool call at `index`: one reasoning
 * block of that index with text alone (no signature); one tool-call fragment of that index with
 * arguments alone (no id, no name — a call's id and name come on its first fragment, so a fragment
 * without them continues the call at its index). Undefined when it is anything else.
 */
function continuation(delta: Delta, kind: number, index: number): string | undefined {
  const key = kind === THINKING ? 'thinking' : 'toolCalls';
  const textKey = kind === THINKING ? 'text' : 'argsFragment';
  if (!only(delta, key, key)) return undefined;
  const part = sole(field(delta, key));
  if (part === undefined || field(part, 'index') !== index || !only(part, 'index', textKey))
    return undefined;
  const text = field(part, textKey);
  return typeof text === 'string' ? text : undefined;
}

/** Whether `value` is undefined or a string. */
function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/**
 * The last event of a feed batch while it is a plain text fragment that later fragments of the same
 * kind may join: content text, one reasoning block's text, or one tool call's arguments. The first
 * fragment is kept as it came; when a second joins, the batch's last event is replaced by a fresh
 * delta (owned here, never the caller's object) that carries the concatenated text once the tail
 * is {@link DeltaTail.seal}ed — before the batch is read. Until then the fragments are kept apart
 * (a string per fragment would live, and be copied by each young-generation collection, until the
 * batch is sent). Subscribers read the same text, in the same order, in fewer events. Internal.
 */
export class DeltaTail {
  /** The merged delta's object holding the text (`content`, `text`, `argsFragment`), once made. */
  private leaf: Record<string, unknown> | undefined;
  /** The fragments joined so far, from the first, once a second joined. */
  private parts: string[] | undefined;
  /** The merged text's length (UTF-16 code units). */
  private length: number;

  private constructor(
    private readonly kind: number,
    private readonly index: number,
    private readonly text: string,
    private readonly first: Delta,
    private readonly events: RunFeedEvent[],
    private readonly at: number,
  ) {
    this.length = text.length;
  }

  /**
   * A tail for `delta`, just added to `events` at `at`, if later fragments may join it: content
   * text alone, one reasoning block with an index and text alone, or one tool-call fragment with an
   * index, its arguments, and optionally its id and name (the call's first fragment).
   */
  static of(delta: Delta, events: RunFeedEvent[], at: number): DeltaTail | undefined {
    const content = delta.content;
    if (typeof content === 'string')
      return only(delta, 'content', 'content')
        ? new DeltaTail(CONTENT, 0, content, delta, events, at)
        : undefined;
    if (delta.thinking !== undefined) {
      const block = sole(delta.thinking);
      if (block === undefined || !only(delta, 'thinking', 'thinking')) return undefined;
      const index = field(block, 'index');
      const text = field(block, 'text');
      if (typeof index !== 'number' || typeof text !== 'string' || !only(block, 'index', 'text'))
        return undefined;
      return new DeltaTail(THINKING, index, text, delta, events, at);
    }
    const call = sole(delta.toolCalls);
    if (call === undefined || !only(delta, 'toolCalls', 'toolCalls')) return undefined;
    const { index, id, name, argsFragment } = call as Record<string, unknown>;
    if (typeof index !== 'number' || !optionalString(id) || !optionalString(name)) return undefined;
    if (!optionalString(argsFragment)) return undefined;
    for (const key in call)
      if (
        key !== 'index' &&
        key !== 'id' &&
        key !== 'name' &&
        key !== 'argsFragment' &&
        field(call, key) !== undefined
      )
        return undefined;
    return new DeltaTail(
      CALL,
      index,
      (argsFragment as string | undefined) ?? '',
      delta,
      events,
      at,
    );
  }

  /**
   * Joins `delta` to this tail when it continues the same fragment and the merged text stays within
   * {@link MERGED_TEXT_MAX}; false (nothing changed) otherwise.
   */
  join(delta: Delta): boolean {
    // Content text first, the common case: checked and stored without a computed key.
    const text =
      this.kind === CONTENT
        ? typeof delta.content === 'string' && only(delta, 'content', 'content')
          ? delta.content
          : undefined
        : continuation(delta, this.kind, this.index);
    if (text === undefined || this.length + text.length > MERGED_TEXT_MAX) return false;
    this.length += text.length;
    const parts = this.parts;
    if (parts !== undefined) parts.push(text);
    else {
      this.parts = [this.text, text];
      this.leaf = this.merged();
    }
    return true;
  }

  /**
   * Writes the joined text into the merged delta: called before the batch is read (it is sent, or
   * another event ends the tail). Nothing joins after.
   */
  seal(): void {
    const parts = this.parts;
    const leaf = this.leaf;
    if (parts === undefined || leaf === undefined) return;
    this.parts = undefined;
    const joined = parts.join('');
    if (this.kind === CONTENT) leaf.content = joined;
    else if (this.kind === THINKING) leaf.text = joined;
    else leaf.argsFragment = joined;
  }

  /** Puts a fresh delta like the first in the batch's place of it; returns its text's object. */
  private merged(): Record<string, unknown> {
    let delta: Delta;
    let leaf: Record<string, unknown>;
    if (this.kind === CONTENT) {
      delta = { content: this.text };
      leaf = delta as Record<string, unknown>;
    } else if (this.kind === THINKING) {
      leaf = { index: this.index, text: this.text };
      delta = { thinking: [leaf as { index: number }] };
    } else {
      const { id, name } = (this.first.toolCalls?.[0] ?? {}) as { id?: string; name?: string };
      leaf = {
        index: this.index,
        ...(id !== undefined && { id }),
        ...(name !== undefined && { name }),
        argsFragment: this.text,
      };
      delta = { toolCalls: [leaf as { index: number }] };
    }
    this.events[this.at] = { type: 'delta', delta };
    return leaf;
  }
}
