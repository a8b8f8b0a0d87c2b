import type { Delta, ToolCallDelta } from '../contract/delta';

/**
 * Gives every streamed tool call the id its committed message will carry: a call whose first
 * fragment has no id (some providers send none) gets the id `normaliseResponse` generates for
 * it (`golem_<request>_<index>`), and a repeated id gets the same stable suffix. Delta `index` is
 * the call's position in the response, so the ids match the final message's. A fragment is copied
 * only when it needs an id; the common case (the provider sent one) returns the delta unchanged.
 * One instance per streamed attempt. Internal.
 */
export class StreamCallIds {
  /** Id of each call seen so far, by delta index. */
  private readonly byIndex: (string | undefined)[] = [];
  private readonly used = new Set<string>();

  constructor(private readonly requestNumber: number) {}

  /** `delta` with an id on each call's first fragment (a copy only when one was missing or taken). */
  fill(delta: Delta): Delta {
    const calls = delta.toolCalls;
    if (calls === undefined) return delta;
    let copied: ToolCallDelta[] | undefined;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i] as ToolCallDelta;
      const index = call.index;
      if (typeof index !== 'number' || this.byIndex[index] !== undefined) continue;
      const id = this.assign(call.id, index);
      if (id === call.id) continue;
      copied ??= calls.slice();
      copied[i] = { ...call, id };
    }
    return copied === undefined ? delta : { ...delta, toolCalls: copied };
  }

  /** The id of the call at `index`, as `normaliseResponse` derives it. */
  private assign(given: string | undefined, index: number): string {
    const base =
      typeof given === 'string' && given !== '' ? given : `golem_${this.requestNumber}_${index}`;
    let id = base;
    for (let n = index; this.used.has(id); n++) id = `${base}_${n}`;
    this.used.add(id);
    this.byIndex[index] = id;
    return id;
  }
}
