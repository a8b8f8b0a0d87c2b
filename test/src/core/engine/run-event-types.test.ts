/**
 * Type-level tests (checked by `tsc --noEmit`; the runtime assertions are trivial): `RunEvent` is
 * a union on `kind`, so `switch (event.kind)` gives each kind exactly its own fields, and reading a
 * field a kind does not have is a type error.
 */
import { expectTypeOf } from 'expect-type';
import type { Cost, Message, ModelRequest, RunEvent, RunEventKind, Usage } from 'golem';
import type { GuardrailPhase } from '../../../../src/core/engine/guardrails';
import type { ToolUpdate } from '../../../../src/core/tool/context';

type Check = Extract<RunEvent, { kind: 'guardrail' }>['guardrail'];

/** Where the `@ts-expect-error` reads go (what they read does not matter, that they fail does). */
const reads: unknown[] = [];

/** Every kind once, with exactly its payload (checked per branch). */
function payload(event: RunEvent): string {
  switch (event.kind) {
    case 'model_start':
      expectTypeOf(event).toEqualTypeOf<{
        kind: 'model_start';
        turn: number;
        attempt: number;
        model?: string;
        request: ModelRequest;
        contextTokens?: number;
      }>();
      // @ts-expect-error a model_start has no answer yet
      reads.push(event.message);
      return 'model_start';
    case 'model_end':
      expectTypeOf(event.turn).toEqualTypeOf<number>();
      expectTypeOf(event.attempt).toEqualTypeOf<number>();
      expectTypeOf(event.usage).toEqualTypeOf<Usage>();
      expectTypeOf(event.model).toEqualTypeOf<string | undefined>();
      // @ts-expect-error only a successful model_end has a response id: narrow on `message` first
      reads.push(event.responseId);
      // @ts-expect-error model events concern no call
      reads.push(event.callId);
      if (event.message !== undefined) {
        expectTypeOf(event.message).toEqualTypeOf<Message>();
        expectTypeOf(event.responseId).toEqualTypeOf<string | undefined>();
        expectTypeOf(event.responseModel).toEqualTypeOf<string | undefined>();
        expectTypeOf(event.finishReason).toEqualTypeOf<string | undefined>();
        expectTypeOf(event.cost).toEqualTypeOf<Cost | undefined>();
        expectTypeOf(event.error).toEqualTypeOf<undefined>();
      } else {
        expectTypeOf(event.error).toEqualTypeOf<unknown>();
        // @ts-expect-error a failed attempt has no cost
        reads.push(event.cost);
      }
      if (event.error !== undefined) expectTypeOf(event.message).toEqualTypeOf<undefined>();
      return 'model_end';
    case 'fallback':
      expectTypeOf(event).toEqualTypeOf<{
        kind: 'fallback';
        turn: number;
        attempt: number;
        model: string;
        nextModel: string;
        error: unknown;
      }>();
      return 'fallback';
    case 'tool_start':
      expectTypeOf(event).toEqualTypeOf<{
        kind: 'tool_start';
        turn: number;
        callId: string;
        toolName: string;
        args: string;
      }>();
      // @ts-expect-error tool events have no provider attempt
      reads.push(event.attempt);
      return 'tool_start';
    case 'tool_end':
      expectTypeOf(event.callId).toEqualTypeOf<string>();
      expectTypeOf(event.toolName).toEqualTypeOf<string>();
      expectTypeOf(event.args).toEqualTypeOf<string>();
      expectTypeOf(event.turn).toEqualTypeOf<number>();
      // @ts-expect-error tool events have no provider attempt
      reads.push(event.attempt);
      if (event.result !== undefined) {
        expectTypeOf(event.result).toEqualTypeOf<string>();
        expectTypeOf(event.error).toEqualTypeOf<undefined>();
      } else expectTypeOf(event.error).toEqualTypeOf<unknown>();
      return 'tool_end';
    case 'deferred':
      expectTypeOf(event).toEqualTypeOf<{
        kind: 'deferred';
        turn: number;
        callId: string;
        toolName: string;
        args: string;
      }>();
      // @ts-expect-error a deferred call has no result
      reads.push(event.result);
      return 'deferred';
    case 'tool_resolved':
      expectTypeOf(event).toEqualTypeOf<{
        kind: 'tool_resolved';
        turn: number;
        callId: string;
        toolName: string;
        args: string;
        result: string;
        resolution: 'denied' | 'external';
      }>();
      return 'tool_resolved';
    case 'tool_progress':
      expectTypeOf(event.callId).toEqualTypeOf<string>();
      expectTypeOf(event.toolName).toEqualTypeOf<string>();
      expectTypeOf(event.turn).toEqualTypeOf<number>();
      expectTypeOf(event.update).toEqualTypeOf<Extract<ToolUpdate, { kind: 'progress' }>>();
      expectTypeOf(event.update.progress).toEqualTypeOf<number>();
      return 'tool_progress';
    case 'tool_log':
      expectTypeOf(event.callId).toEqualTypeOf<string>();
      expectTypeOf(event.update).toEqualTypeOf<Extract<ToolUpdate, { kind: 'log' }>>();
      expectTypeOf(event.update.level).toEqualTypeOf<string>();
      return 'tool_log';
    case 'output_rejected':
      expectTypeOf(event).toEqualTypeOf<{
        kind: 'output_rejected';
        attempt: number;
        error: unknown;
      }>();
      // @ts-expect-error turns restart with the correction round: output_rejected has no turn
      reads.push(event.turn);
      return 'output_rejected';
    case 'guardrail':
      expectTypeOf(event.guardrail.phase).toEqualTypeOf<GuardrailPhase>();
      expectTypeOf(event.guardrail).toEqualTypeOf<Check>();
      // @ts-expect-error only a tool phase's check has a turn: narrow on `callId` first
      reads.push(event.turn);
      if (event.callId !== undefined) {
        expectTypeOf(event.toolName).toEqualTypeOf<string>();
        expectTypeOf(event.turn).toEqualTypeOf<number>();
      }
      return 'guardrail';
    case 'compaction':
      expectTypeOf(event.compaction.policy).toEqualTypeOf<string>();
      expectTypeOf(event.turn).toEqualTypeOf<number>();
      return 'compaction';
    case 'memory_failed':
      expectTypeOf(event.error).toEqualTypeOf<unknown>();
      return 'memory_failed';
    case 'handoff':
      expectTypeOf(event.to).toEqualTypeOf<string>();
      expectTypeOf(event.turn).toEqualTypeOf<number>();
      return 'handoff';
    default:
      // Every kind is handled above.
      expectTypeOf(event).toEqualTypeOf<never>();
      return 'none';
  }
}

test('RunEventKind is RunEvent["kind"]: the fourteen kinds', () => {
  expectTypeOf<RunEventKind>().toEqualTypeOf<RunEvent['kind']>();
  expectTypeOf<RunEventKind>().toEqualTypeOf<
    | 'model_start'
    | 'model_end'
    | 'fallback'
    | 'tool_start'
    | 'tool_end'
    | 'deferred'
    | 'tool_resolved'
    | 'tool_progress'
    | 'tool_log'
    | 'output_rejected'
    | 'guardrail'
    | 'compaction'
    | 'memory_failed'
    | 'handoff'
  >();
});

test('a flat read of a field some kind lacks is a type error; `in` or `kind` narrows it', () => {
  const read = (event: RunEvent): unknown[] => [
    // @ts-expect-error not every kind concerns a call
    event.callId,
    // @ts-expect-error not every kind has an error
    event.error,
    // @ts-expect-error not every kind has a turn (output_rejected)
    event.turn,
    // @ts-expect-error not every kind has an attempt (tool events)
    event.attempt,
    // @ts-expect-error only model_end has usage
    event.usage,
    'callId' in event ? event.callId : undefined,
    event.kind === 'tool_end' ? event.callId : undefined,
  ];
  const event: RunEvent = { kind: 'output_rejected', attempt: 1, error: new Error('no') };
  expect(payload(event)).toBe('output_rejected');
  expect(read(event)).toHaveLength(7);
});

test('a producer must give each kind its payload', () => {
  // @ts-expect-error a tool_start needs callId, toolName and args
  const missing: RunEvent = { kind: 'tool_start', turn: 0 };
  // @ts-expect-error output_rejected has no turn
  const extra: RunEvent = { kind: 'output_rejected', turn: 0, attempt: 1, error: null };
  expect([missing.kind, extra.kind]).toEqual(['tool_start', 'output_rejected']);
});
