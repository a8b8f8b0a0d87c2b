/**
 * Helpers of the Anthropic adapter tests: our own fixtures (written from the documented wire
 * format), replies for the loopback replay server, and a delta log. The recorded third-party
 * fixtures are read only by test/recorded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Delta } from 'golem';
import { anthropic, type AnthropicModel, type AnthropicOptions } from 'golem/providers/anthropic';
import type { Reply, ReplayServer } from '../../../support/replay-server';

/** Own fixtures written from the documented wire format. */
export const OWN_FIXTURES = join(__dirname, 'fixtures');

/** A fake key; tests assert it never leaks into errors. */
export const API_KEY = 'sk-ant-test-0123456789abcdef';

/** Text of one of our own fixtures. */
export function ownFixture(file: string): string {
  return readFileSync(join(OWN_FIXTURES, file), 'utf8');
}

/** A JSON reply. */
export function jsonReply(body: string, status = 200, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body };
}

/** An SSE reply, whole or as the given chunks. */
export function sseReply(body: string | readonly (string | Uint8Array)[]): Reply {
  const headers = { 'content-type': 'text/event-stream; charset=utf-8' };
  return typeof body === 'string' ? { headers, body } : { headers, chunks: body };
}

/** SSE text of payloads, each as `event: <type>` + `data:` frame. */
export function sse(...payloads: readonly Record<string, unknown>[]): string {
  return payloads.map((p) => `event: ${String(p.type)}\ndata: ${JSON.stringify(p)}\n\n`).join('');
}

/** The adapter pointed at a replay server. */
export function modelFor(
  server: ReplayServer,
  options: Partial<AnthropicOptions> = {},
): AnthropicModel {
  return anthropic({ model: 'claude-test', apiKey: API_KEY, baseURL: server.url, ...options });
}

/** Collects deltas and offers their concatenations. */
export class DeltaLog {
  readonly deltas: Delta[] = [];
  readonly handler = (delta: Delta): void => {
    this.deltas.push(delta);
  };

  get text(): string {
    return this.deltas.map((d) => d.content ?? '').join('');
  }

  /** Tool calls rebuilt from fragments: id/name from the first, args concatenated. */
  get toolCalls(): { index: number; id?: string; name?: string; args: string }[] {
    const calls = new Map<number, { index: number; id?: string; name?: string; args: string }>();
    for (const fragment of this.deltas.flatMap((d) => d.toolCalls ?? [])) {
      const call = calls.get(fragment.index) ?? { index: fragment.index, args: '' };
      if (fragment.id !== undefined) call.id = fragment.id;
      if (fragment.name !== undefined) call.name = fragment.name;
      call.args += fragment.argsFragment ?? '';
      calls.set(fragment.index, call);
    }
    return [...calls.values()];
  }

  /** Thinking rebuilt from fragments, by index. */
  get thinking(): { index: number; text: string; signature: string }[] {
    const blocks = new Map<number, { index: number; text: string; signature: string }>();
    for (const fragment of this.deltas.flatMap((d) => d.thinking ?? [])) {
      const block = blocks.get(fragment.index) ?? {
        index: fragment.index,
        text: '',
        signature: '',
      };
      block.text += fragment.text ?? '';
      block.signature += fragment.signature ?? '';
      blocks.set(fragment.index, block);
    }
    return [...blocks.values()];
  }
}
