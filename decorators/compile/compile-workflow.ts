import type { ConfigError } from '../../src/core/index';
import type { WorkflowStepDeclaration } from '../../src/workflows/index';
import { agentDefinitionError, classNameOf, memberName } from '../errors';
import { classChain, readOwn } from '../metadata';
import { isNoArgs } from '../schema/dto-model';
import { WORKFLOW_KEY, type WorkflowRecord } from '../workflow-decorator';
import { workflowDto } from './workflow-dto';
import type { WorkflowClassDefinition, WorkflowStepInfo } from './workflow-definition';
import { methodInputOf } from './workflow-input';
import { checkName, compileSteps } from './compile-workflow-steps';

const OPTION_NAMES = ['name', 'maxSteps', 'input', 'steps'] as const;
const KINDS: readonly string[] = ['step', 'sleep', 'event', 'agent'];
/** The names `defineWorkflow` accepts. */
const WORKFLOW_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;
const cache = new WeakMap<object, WorkflowClassDefinition>();

/** Whether `target` is a class decorated with `@Workflow` (itself or a base). */
export function isWorkflowClass(target: unknown): boolean {
  return (
    typeof target === 'function' &&
    classChain(target).some((owner) => readOwn(WORKFLOW_KEY, owner) !== undefined)
  );
}

/**
 * Compiles a `@Workflow` class into its frozen definition: name, `maxSteps`, the `run` input DTO
 * and the `@Step` methods (input and output DTOs, retries, declared successors). Compiled once
 * per class (cached). Every declaration mistake throws `ConfigError` (component `decorators`)
 * naming the class and member.
 */
export function compileWorkflowClass(target: unknown): WorkflowClassDefinition {
  if (typeof target !== 'function')
    throw agentDefinitionError(
      'invalid-option',
      `expected a workflow class, got ${typeof target}`,
      {
        className: classNameOf(target),
        hint: 'pass the class decorated with @Workflow() (an undefined class often means a circular import)',
      },
    );
  const cached = cache.get(target);
  if (cached !== undefined) return cached;
  const className = classNameOf(target);
  const options = mergedOptions(target, className);
  const prototype = (target as { prototype: Record<string, unknown> }).prototype;
  const run: unknown = prototype.run;
  if (typeof run !== 'function')
    throw agentDefinitionError('not-a-method', 'the workflow has no run method', {
      className,
      member: 'run',
      hint: 'declare the entry method: async run(input: InputDto, wf: WorkflowContext) { … }',
    });
  const inputClass = methodInputOf(
    ownerOfMember(target, 'run'),
    'run',
    run as (...args: unknown[]) => unknown,
    options.input,
    '@Workflow',
  );
  const input = workflowDto(inputClass, `${className}.run`);
  const steps = compileSteps(target, className);
  const declared = declarations(steps, options.steps, className);
  const definition: WorkflowClassDefinition = Object.freeze({
    target: target as WorkflowClassDefinition['target'],
    className,
    name: options.name ?? className,
    ...(options.maxSteps !== undefined && { maxSteps: options.maxSteps }),
    input: isNoArgs(inputClass) ? undefined : inputClass,
    parseInput: input.parse,
    inputSchema: isNoArgs(inputClass) ? undefined : input.schema,
    steps: Object.freeze(steps),
    declared,
  });
  cache.set(target, definition);
  return definition;
}

interface MergedOptions {
  name?: string;
  maxSteps?: number;
  input?: unknown;
  steps?: unknown;
}

function mergedOptions(target: object, className: string): MergedOptions {
  let declared = false;
  const merged: Record<string, unknown> = {};
  for (const owner of classChain(target)) {
    const record = readOwn(WORKFLOW_KEY, owner) as WorkflowRecord | undefined;
    if (record === undefined) continue;
    declared = true;
    for (const [key, value] of Object.entries(record.options as Record<string, unknown>)) {
      if (!(OPTION_NAMES as readonly string[]).includes(key))
        throw agentDefinitionError('invalid-option', `@Workflow has an unknown option "${key}"`, {
          className: classNameOf(owner),
          hint: `the options are ${OPTION_NAMES.join(', ')}`,
        });
      if (value !== undefined) merged[key] = value;
    }
  }
  if (!declared)
    throw agentDefinitionError('invalid-option', 'the class has no @Workflow decorator', {
      className,
      hint: 'decorate it with @Workflow() (from golem/decorators)',
    });
  const { name, maxSteps } = merged;
  if (name !== undefined && (typeof name !== 'string' || !WORKFLOW_NAME.test(name)))
    throw agentDefinitionError(
      'invalid-option',
      `@Workflow name ${JSON.stringify(name)} is not 1–128 letters, digits, "_", ".", ":" or "-"`,
      { className, hint: 'give a stable name such as "order-fulfilment"' },
    );
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && (maxSteps as number) > 0))
    throw agentDefinitionError('invalid-option', '@Workflow maxSteps must be a positive integer', {
      className,
      hint: 'e.g. @Workflow({ maxSteps: 100 }), or leave it out (default 1000)',
    });
  return merged;
}

/** The class in `target`'s chain whose prototype owns `member` (for its reflected metadata). */
function ownerOfMember(target: object, member: string | symbol): object {
  const owner = classChain(target)
    .reverse()
    .find((c) =>
      Object.prototype.hasOwnProperty.call((c as { prototype: object }).prototype, member),
    );
  return owner ?? target;
}

/**
 * The step declarations `defineWorkflow` gets: the `@Step` methods then `@Workflow({ steps })`,
 * once the class declares its graph (a `@Step({ next })` or `@Workflow({ steps })`); `undefined`
 * otherwise (steps are then only known as the workflow runs).
 */
function declarations(
  steps: readonly WorkflowStepInfo[],
  extra: unknown,
  className: string,
): readonly WorkflowStepDeclaration[] | undefined {
  const fail = (message: string): ConfigError =>
    agentDefinitionError('invalid-option', message, {
      className,
      hint: "declare steps as { name, kind?: 'step' | 'sleep' | 'event' | 'agent', next?: [names] }",
    });
  if (extra !== undefined && !Array.isArray(extra)) throw fail('@Workflow steps must be an array');
  const listed = (extra ?? []) as readonly unknown[];
  const declared: WorkflowStepDeclaration[] = steps.map((step) => ({
    name: step.name,
    ...(step.next !== undefined && { next: step.next }),
  }));
  for (const entry of listed) {
    const { name, kind, next } = (entry ?? {}) as Record<string, unknown>;
    checkName(name, '@Workflow steps name', { className });
    if (kind !== undefined && !KINDS.includes(kind as string))
      throw fail(`@Workflow step "${name}" has the unknown kind ${JSON.stringify(kind)}`);
    if (next !== undefined && !(Array.isArray(next) && next.every((n) => typeof n === 'string')))
      throw fail(`@Workflow step "${name}": next must be an array of step names`);
    declared.push({
      name,
      ...(kind !== undefined && { kind: kind as WorkflowStepDeclaration['kind'] }),
      ...(next !== undefined && { next: next.map(String) }),
    });
  }
  const names = new Set<string>();
  for (const { name } of declared) {
    if (names.has(name)) throw fail(`step "${name}" is declared twice`);
    names.add(name);
  }
  for (const step of declared)
    for (const successor of step.next ?? [])
      if (!names.has(successor))
        throw agentDefinitionError(
          'invalid-option',
          `step "${step.name}" names "${successor}" as next, which is not a declared step`,
          {
            className,
            ...memberOf(steps, step.name),
            hint: `name one of ${[...names].map((n) => JSON.stringify(n)).join(', ')}, or declare it with @Workflow({ steps: [{ name: ${JSON.stringify(successor)}, kind: 'sleep' }] })`,
          },
        );
  const graph = listed.length > 0 || steps.some((step) => step.next !== undefined);
  return graph ? Object.freeze(declared) : undefined;
}

function memberOf(steps: readonly WorkflowStepInfo[], name: string): { member?: string } {
  const step = steps.find((s) => s.name === name);
  return step === undefined ? {} : { member: memberName(step.member) };
}
