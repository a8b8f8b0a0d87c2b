/**
 * The shared durable-run scenario: turn 1 calls step A and B (one batch), turn 2 calls step C,
 * turn 3 answers "done". The model is stateless — it picks the turn from the number of tool
 * results in the request — so a run continued in another process gets the same turns.
 */
import { defineTool } from 'golem';
import type { Message, ModelRequest, ModelResponse, Tool } from 'golem';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

/** The turn a request is at: how many tool results it carries. */
export function turnOf(request: ModelRequest): number {
  return request.messages.filter((m) => m.role === 'tool').length;
}

/** The scripted turn for a request. */
export function scriptedTurn(request: ModelRequest): ModelResponse {
  const results = turnOf(request);
  if (results === 0)
    return toolCallResponse([
      { id: 'a1', name: 'step', args: { name: 'A' } },
      { id: 'a2', name: 'step', args: { name: 'B' } },
    ]);
  if (results === 2) return toolCallResponse([{ id: 'c1', name: 'step', args: { name: 'C' } }]);
  return textResponse('done', { inputTokens: 10, outputTokens: 2 });
}

/** The scenario model; `before` runs first on every call (to record, signal or hang). */
export function scenarioModel(
  before: (request: ModelRequest) => void | Promise<void> = () => undefined,
): FunctionModel {
  return new FunctionModel(async (request) => {
    await before(request);
    return scriptedTurn(request);
  });
}

/** The `step` tool: `effect(callId, name)` is its side effect (runs before it answers). */
export function stepTool(
  effect: (callId: string, name: string, approved: boolean) => void | Promise<void>,
  options: { idempotent?: boolean } = {},
): Tool {
  return defineTool({
    name: 'step',
    description: 'Do one step.',
    schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    ...(options.idempotent !== undefined && { idempotent: options.idempotent }),
    execute: async (args, ctx) => {
      const { name } = args as { name: string };
      await effect(ctx.callId, name, ctx.approved);
      return `did ${name}`;
    },
  });
}

/** Each call id of `messages` with the number of results answering it. */
export function resultsPerCall(messages: readonly Message[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of messages) for (const c of m.toolCalls ?? []) counts[c.id] = 0;
  for (const m of messages)
    if (m.role === 'tool' && m.toolCallId !== undefined)
      counts[m.toolCallId] = (counts[m.toolCallId] ?? 0) + 1;
  return counts;
}

/** The roles and texts of `messages`, one line each (tool calls by id). */
export function transcript(messages: readonly Message[]): string[] {
  return messages.map((m) => {
    const calls = (m.toolCalls ?? []).map((c) => c.id).join(',');
    if (calls !== '') return `${m.role}[${calls}]`;
    return m.role === 'tool'
      ? `tool(${m.toolCallId ?? ''}): ${m.content ?? ''}`
      : `${m.role}: ${m.content ?? ''}`;
  });
}

/** A promise and the function that settles it. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A promise that never settles: "the process died here". */
export function forever(): Promise<never> {
  return new Promise<never>(() => undefined);
}

/** A clock tests move by hand. */
export class FakeClock {
  t = Date.UTC(2030, 0, 1);
  readonly now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}
