import { agentDefinitionError, classNameOf, memberName } from '../errors';
import { NoArgs } from '../no-args';
import { describeType, isDtoCandidate, isNoArgs, type DtoClass } from '../schema/dto-model';

/** Which method's input is read: the workflow's `run` or a `@Step` method. */
export type InputOwner = '@Workflow' | '@Step()';

const TOOLCHAIN_HINT: Record<InputOwner, string> = {
  '@Workflow':
    'TypeScript records parameter types only for decorated methods, and run has no decorator: ' +
    'name the input class, @Workflow({ input: OrderInput }) (@Workflow({ input: NoArgs }) for a ' +
    'workflow without input)',
  '@Step()':
    'the toolchain did not emit decorator metadata (design:paramtypes), as tsx, esbuild and ' +
    'Vite ≤ 7 (Vitest) do not: name the input class, @Step({ input: OrderInput }) ' +
    '(@Step({ input: NoArgs }) for a step without input), or compile with ' +
    '"experimentalDecorators" and "emitDecoratorMetadata"',
};

/**
 * The input DTO of a workflow's `run` method or of a `@Step` method: `declared` (the decorator's
 * `input` option), else the first parameter's reflected type (`design:paramtypes`). `NoArgs` is
 * returned for a method without parameters.
 */
export function methodInputOf(
  owner: object,
  member: string | symbol,
  method: (...args: unknown[]) => unknown,
  declared: unknown,
  decorator: InputOwner,
): DtoClass {
  const where = { className: classNameOf(owner), member: memberName(member) };
  const prototype = (owner as { prototype: object }).prototype;
  const reflected = Reflect.getOwnMetadata('design:paramtypes', prototype, member) as unknown;
  const first: unknown = Array.isArray(reflected) ? reflected[0] : undefined;
  if (declared !== undefined) {
    if (!isDtoCandidate(declared))
      throw agentDefinitionError(
        'unreflectable-args',
        `${decorator}({ input }) is ${describeType(declared)}, not a DTO class`,
        { ...where, hint: `pass the input class itself: ${decorator}({ input: OrderInput })` },
      );
    if (isDtoCandidate(first) && first !== declared && !isNoArgs(first))
      throw agentDefinitionError(
        'args-mismatch',
        `${decorator}({ input: ${classNameOf(declared)} }) disagrees with the parameter type ${classNameOf(first)}`,
        { ...where, hint: 'use one class for both, or drop `input` (the parameter type is read)' },
      );
    return declared;
  }
  if (!Array.isArray(reflected)) {
    if (method.length === 0) return NoArgs;
    throw agentDefinitionError('missing-metadata', 'cannot tell the input type of this method', {
      ...where,
      hint: TOOLCHAIN_HINT[decorator],
    });
  }
  if (reflected.length === 0 || isNoArgs(first)) return NoArgs;
  if (isDtoCandidate(first)) return first;
  throw agentDefinitionError(
    'unreflectable-args',
    `the first parameter's type is reflected as ${describeType(first)}, not a DTO class`,
    { ...where, hint: unreflectableHint(first, decorator) },
  );
}

function unreflectableHint(type: unknown, decorator: InputOwner): string {
  if (type === Function)
    return 'the class is imported with `import type`, which erases it; import it as a value';
  if (type === undefined)
    return 'the class is used before its declaration (or through a circular import); declare it first';
  const context =
    decorator === '@Step()'
      ? 'a step that takes only its context declares (input: NoArgs, ctx?: StepContext)'
      : 'a workflow without input declares run(input: NoArgs, wf: WorkflowContext)';
  return (
    'the input is one JSON object validated by a DTO class with class-validator decorators ' +
    `(interfaces, unions, primitives and \`unknown\` are erased); ${context}`
  );
}
