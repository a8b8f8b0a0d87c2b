import { agentDefinitionError, classNameOf, memberName } from '../errors';
import { NoArgs } from '../no-args';
import { describeType, isDtoCandidate, isNoArgs, type DtoClass } from '../schema/dto-model';

const TOOLCHAIN_HINT =
  'the toolchain did not emit decorator metadata (design:paramtypes), as tsx, esbuild and ' +
  'Vite ≤ 7 (Vitest) do not: name the argument class, @Tool({ args: TheArgsClass }) ' +
  '(@Tool({ args: NoArgs }) for a tool that takes only the context), or compile with ' +
  '"experimentalDecorators" and "emitDecoratorMetadata" (tsc, ts-jest, SWC with ' +
  'jsc.transform.decoratorMetadata, Vite 8)';

/**
 * The argument DTO of a tool method: `options.args`, else the first parameter's reflected type
 * (`design:paramtypes`). `NoArgs` is returned for a method without arguments.
 */
export function toolArgsOf(
  owner: object,
  member: string | symbol,
  method: (...args: unknown[]) => unknown,
  declared: unknown,
): DtoClass {
  const where = { className: classNameOf(owner), member: memberName(member) };
  const prototype = (owner as { prototype: object }).prototype;
  const reflected = Reflect.getOwnMetadata('design:paramtypes', prototype, member) as unknown;
  const first: unknown = Array.isArray(reflected) ? reflected[0] : undefined;
  if (declared !== undefined) {
    if (!isDtoCandidate(declared)) {
      throw agentDefinitionError(
        'unreflectable-args',
        `@Tool({ args }) is ${describeType(declared)}, not a DTO class`,
        { ...where, hint: 'pass the argument class itself: @Tool({ args: ForecastArgs })' },
      );
    }
    if (isDtoCandidate(first) && first !== declared && !isNoArgs(first)) {
      throw agentDefinitionError(
        'args-mismatch',
        `@Tool({ args: ${classNameOf(declared)} }) disagrees with the parameter type ${classNameOf(first)}`,
        { ...where, hint: 'use one class for both, or drop `args` (the parameter type is read)' },
      );
    }
    return declared;
  }
  if (!Array.isArray(reflected)) {
    if (method.length === 0) return NoArgs;
    throw agentDefinitionError('missing-metadata', 'cannot tell the argument type of this tool', {
      ...where,
      hint: TOOLCHAIN_HINT,
    });
  }
  if (reflected.length === 0) return NoArgs;
  if (isNoArgs(first)) return NoArgs;
  if (isDtoCandidate(first)) return first;
  throw agentDefinitionError(
    'unreflectable-args',
    `the first parameter's type is reflected as ${describeType(first)}, not a DTO class`,
    { ...where, hint: unreflectableHint(first) },
  );
}

function unreflectableHint(type: unknown): string {
  if (type === Object) {
    return (
      'tool arguments must be a class imported as a value (interfaces, unions, type aliases, ' +
      '`unknown` and `import type` classes are erased to Object); declare a DTO class with ' +
      'class-validator decorators, or, if this parameter is the ToolContext, declare the tool ' +
      'as (args: NoArgs, ctx)'
    );
  }
  if (type === Function) {
    return 'the class is imported with `import type`, which erases it; import it as a value';
  }
  if (type === undefined) {
    return 'the class is used before its declaration (or through a circular import); declare it first';
  }
  return 'tool arguments are one JSON object; wrap the values in a DTO class with class-validator decorators';
}
