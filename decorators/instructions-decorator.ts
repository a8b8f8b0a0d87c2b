import type { RunContext } from '../src/core/index';
import type { AnyClass, DepsOf } from './markers';
import { appendOwn, METADATA_KEYS, ownerOf, prependOwn } from './metadata';
import type { InstructionsRecord } from './metadata';

/** What an `@Instructions()` method may be: evaluated once per run with the run context. */
export type InstructionsMethod<Deps> = (
  ctx: RunContext<Deps>,
) => string | undefined | Promise<string | undefined>;

/**
 * System instructions. On the class, `@Instructions(text)` adds static text; on a method,
 * `@Instructions()` makes it dynamic: evaluated once per run (sync or async) with the run's
 * `RunContext` (typed `deps`), returning text (`''` or `undefined` adds nothing). Pieces are
 * joined by a blank line in order: a base class's before its subclass's, class texts (top to
 * bottom) before methods (in declaration order).
 */
export function Instructions(text: string): (target: AnyClass) => void;
export function Instructions(): <T extends object, M extends InstructionsMethod<DepsOf<T>>>(
  target: T,
  member: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void;
export function Instructions(...args: [text?: string]) {
  const hasText = args.length > 0;
  const text: unknown = args[0];
  return (target: object, member?: string | symbol): void => {
    if (member === undefined) {
      // Class decorators apply bottom-up; prepending keeps the texts in reading order.
      const record: InstructionsRecord = { kind: 'text', text: hasText ? text : undefined };
      prependOwn(METADATA_KEYS.instructions, target, record);
      return;
    }
    const { ctor, isStatic } = ownerOf(target);
    const record: InstructionsRecord = hasText
      ? { kind: 'text', text }
      : { kind: 'method', member, isStatic };
    appendOwn(METADATA_KEYS.instructions, ctor, record);
  };
}
