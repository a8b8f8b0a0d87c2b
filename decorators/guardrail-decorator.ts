import type {
  GuardrailContext,
  GuardrailInput,
  GuardrailResult,
  GuardrailToolCall,
} from '../src/core/index';
import type { DepsOf, OutputOf } from './markers';
import { appendOwn, METADATA_KEYS, ownerOf } from './metadata';
import type { GuardrailRecord } from './metadata';

/** Where a `@Guardrail` method checks. */
export type GuardrailMethodPhase = 'input' | 'output' | 'tool_input' | 'tool_output';

/** Options of `@Guardrail`. */
export interface GuardrailOptions {
  /** The name in events and errors; default the method name. */
  readonly name?: string;
  /** Input guardrails: run before the model (`'sequential'`, default) or alongside it (`'parallel'`). */
  readonly mode?: 'sequential' | 'parallel';
  /** Output and tool guardrails: a trip fails the run (`'fail'`, default) or asks the model to correct itself (`'retry'`). */
  readonly onTrip?: 'fail' | 'retry';
  /** Tool guardrails: the tool names checked; default every tool. */
  readonly tools?: readonly string[];
}

type Result<T> = GuardrailResult<T> | Promise<GuardrailResult<T>>;

/** The signature a `@Guardrail(phase)` method must have, for the class `T`. */
export type GuardrailMethod<T, P extends GuardrailMethodPhase> = P extends 'input'
  ? (input: GuardrailInput, ctx: GuardrailContext<DepsOf<T>>) => Result<string>
  : P extends 'output'
    ? (output: OutputOf<T>, ctx: GuardrailContext<DepsOf<T>>) => Result<OutputOf<T>>
    : P extends 'tool_input'
      ? (call: GuardrailToolCall, ctx: GuardrailContext<DepsOf<T>>) => Result<unknown>
      : (
          call: GuardrailToolCall & { readonly result: string },
          ctx: GuardrailContext<DepsOf<T>>,
        ) => Result<string>;

/**
 * Declares a method as a guardrail of the agent (see the guardrails guide): `'input'` checks the
 * prompt before the first model call, `'output'` the validated output before it is returned,
 * `'tool_input'` a tool call's arguments before it runs, `'tool_output'` the text it returned.
 * The method runs on the instance (`this` bound) and answers with `verdict.pass()`,
 * `verdict.rewrite(value)`, `verdict.trip(reason)` or nothing (pass). Records metadata only.
 *
 * ```ts
 * @Guardrail('output', { onTrip: 'retry' })
 * noPhoneNumbers(output: Reply) { return /\d{3}-\d{4}/.test(output.text) ? verdict.trip('no phone numbers') : undefined; }
 * ```
 */
export function Guardrail<P extends GuardrailMethodPhase>(
  phase: P,
  options: GuardrailOptions = {},
): <T extends object, M extends GuardrailMethod<T, P>>(
  target: T,
  member: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void {
  return (target, member) => {
    const { ctor, isStatic } = ownerOf(target);
    const record: GuardrailRecord = {
      member,
      phase,
      options: { ...(options as Record<string, unknown>) },
      isStatic,
    };
    appendOwn(METADATA_KEYS.guardrails, ctor, record);
  };
}
