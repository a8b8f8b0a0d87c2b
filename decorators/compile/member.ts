import { agentDefinitionError, classNameOf, memberName } from '../errors';

/**
 * Checks that `member` of `owner` is an instance method (not a getter, setter or field) and
 * returns the function. `decorator` names the decorator in messages.
 */
export function methodOf(
  owner: object,
  member: string | symbol,
  isStatic: boolean,
  decorator: '@Tool()' | '@Instructions()',
): (...args: unknown[]) => unknown {
  const className = classNameOf(owner);
  const where = { className, member: memberName(member) };
  if (isStatic) {
    throw agentDefinitionError('not-a-method', `${decorator} is on a static member`, {
      ...where,
      hint: 'make it an instance method (it runs on the agent instance)',
    });
  }
  const prototype = (owner as { prototype: object }).prototype;
  const descriptor = Object.getOwnPropertyDescriptor(prototype, member);
  if (descriptor !== undefined && (descriptor.get !== undefined || descriptor.set !== undefined)) {
    throw agentDefinitionError(
      decorator === '@Tool()' ? 'tool-on-accessor' : 'not-a-method',
      `${decorator} is on a ${descriptor.get !== undefined ? 'getter' : 'setter'}`,
      { ...where, hint: 'put it on a method instead' },
    );
  }
  const value: unknown = descriptor?.value;
  if (typeof value !== 'function') {
    throw agentDefinitionError('not-a-method', `${decorator} is on a property, not a method`, {
      ...where,
      hint: 'declare a method: name(args, ctx) { … }',
    });
  }
  return value as (...args: unknown[]) => unknown;
}
