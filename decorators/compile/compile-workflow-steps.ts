import type { ConfigError } from '../../src/core/index';
import { agentDefinitionError, classNameOf, memberName } from '../errors';
import { classChain, readOwn } from '../metadata';
import { describeType, isDtoCandidate, isNoArgs } from '../schema/dto-model';
import { STEP_KEY, type StepRecord } from '../step-decorator';
import { workflowDto } from './workflow-dto';
import type { WorkflowStepInfo } from './workflow-definition';
import { methodInputOf } from './workflow-input';

const STEP_OPTION_NAMES = ['name', 'retries', 'next', 'output', 'input'] as const;

/** Throws an `invalid-option` definition error unless `name` is a usable step name. */
export function checkName(
  name: unknown,
  what: string,
  where: { className: string; member?: string },
): asserts name is string {
  if (typeof name !== 'string' || name.trim() === '' || name.includes('#') || name.length > 200)
    throw agentDefinitionError(
      'invalid-option',
      `${what} ${JSON.stringify(name)} is not a usable name (a non-empty string of at most 200 characters without "#")`,
      { ...where, hint: 'give a stable name such as "reserve-stock"' },
    );
}

interface Declared {
  readonly record: StepRecord;
  readonly owner: object;
}

/**
 * The `@Step` methods of `ctor` and its bases (a subclass redeclaring one replaces it in place);
 * two steps with one name are an error.
 */
export function compileSteps(ctor: object, className: string): WorkflowStepInfo[] {
  const declared = new Map<string | symbol, Declared>();
  for (const owner of classChain(ctor)) {
    const seen = new Set<string | symbol>();
    for (const record of (readOwn(STEP_KEY, owner) ?? []) as readonly StepRecord[]) {
      if (seen.has(record.member))
        throw agentDefinitionError('invalid-option', '@Step() is applied twice', {
          className: classNameOf(owner),
          member: memberName(record.member),
          hint: 'keep one @Step() per method',
        });
      seen.add(record.member);
      declared.set(record.member, { record, owner });
    }
  }
  const steps = [...declared.values()].map(compileStep);
  const names = new Map<string, WorkflowStepInfo>();
  for (const step of steps) {
    const clash = names.get(step.name);
    if (clash !== undefined)
      throw agentDefinitionError(
        'invalid-option',
        `step "${step.name}" is declared twice: by ${clash.declaredBy}.${memberName(clash.member)} and by ${step.declaredBy}.${memberName(step.member)}`,
        {
          className,
          member: memberName(step.member),
          hint: 'give one of them another name: @Step({ name: "…" })',
        },
      );
    names.set(step.name, step);
  }
  return steps;
}

function compileStep({ record, owner }: Declared): WorkflowStepInfo {
  const { member, options } = record;
  const className = classNameOf(owner);
  const where = { className, member: memberName(member) };
  const fail = (message: string, hint: string): ConfigError =>
    agentDefinitionError('invalid-option', message, { ...where, hint });
  for (const key of Object.keys(options))
    if (!(STEP_OPTION_NAMES as readonly string[]).includes(key))
      throw fail(
        `@Step has an unknown option "${key}"`,
        `the options are ${STEP_OPTION_NAMES.join(', ')}`,
      );
  const method = stepMethodOf(owner, member, record.isStatic);
  if (member === 'run')
    throw agentDefinitionError('not-a-method', '@Step() is on the entry method run', {
      ...where,
      hint: 'run is the workflow itself; move the step into its own method and call it from run',
    });
  if (typeof member === 'symbol' && options.name === undefined)
    throw fail(
      '@Step() is on a symbol-keyed method',
      'give the step a name: @Step({ name: "reserve" })',
    );
  const name: unknown = options.name ?? member;
  checkName(name, '@Step name', where);
  const { retries, next, output } = options;
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0))
    throw fail('@Step retries must be a non-negative integer', 'e.g. @Step({ retries: 2 })');
  if (
    next !== undefined &&
    !(Array.isArray(next) && next.every((n) => typeof n === 'string' && n !== ''))
  )
    throw fail('@Step next must be an array of step names', 'e.g. @Step({ next: ["charge"] })');
  if (output !== undefined && (!isDtoCandidate(output) || isNoArgs(output)))
    throw agentDefinitionError(
      'invalid-output',
      `@Step({ output }) is ${describeType(output)}, not a DTO class`,
      { ...where, hint: 'pass the output class itself: @Step({ output: Reservation })' },
    );
  const inputClass = methodInputOf(owner, member, method, options.input, '@Step()');
  const usedBy = `${className}.${memberName(member)}`;
  const input = workflowDto(inputClass, usedBy);
  const out = output === undefined ? undefined : workflowDto(output, usedBy);
  return Object.freeze({
    name,
    member,
    declaredBy: className,
    ...(retries !== undefined && { retries }),
    ...(next !== undefined && { next: Object.freeze(next.map(String)) }),
    input: isNoArgs(inputClass) ? undefined : inputClass,
    output,
    parseInput: input.parse,
    parseOutput: out?.parse,
    outputSchema: out?.schema,
  });
}

function stepMethodOf(
  owner: object,
  member: string | symbol,
  isStatic: boolean,
): (...args: unknown[]) => unknown {
  const where = { className: classNameOf(owner), member: memberName(member) };
  if (isStatic)
    throw agentDefinitionError('not-a-method', '@Step() is on a static member', {
      ...where,
      hint: 'make it an instance method (it runs on the workflow instance)',
    });
  const prototype = (owner as { prototype: object }).prototype;
  const descriptor = Object.getOwnPropertyDescriptor(prototype, member);
  if (descriptor !== undefined && (descriptor.get !== undefined || descriptor.set !== undefined))
    throw agentDefinitionError(
      'not-a-method',
      `@Step() is on a ${descriptor.get !== undefined ? 'getter' : 'setter'}`,
      { ...where, hint: 'put it on an async method instead' },
    );
  const value: unknown = descriptor?.value;
  if (typeof value !== 'function')
    throw agentDefinitionError('not-a-method', '@Step() is on a property, not a method', {
      ...where,
      hint: 'declare an async method: async name(input, ctx?) { … }',
    });
  return value as (...args: unknown[]) => unknown;
}
