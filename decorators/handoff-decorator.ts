import type { AgentConfig } from '../src/core/index';
import { agentDefinitionError, classNameOf } from './errors';
import type { AnyClass } from './markers';
import { appendOwn, classChain, METADATA_KEYS, readOwn } from './metadata';

/** The metadata key `@Handoff` records under. */
export const HANDOFF_KEY = 'golem:handoffs';

/**
 * One entry of an agent's `handoffs`, as the engine takes it.
 * @inline
 */
type HandoffEntry = NonNullable<AgentConfig<never, unknown>['handoffs']>[number];
/** Rewrites what the target agent sees of the conversation (the engine's handoff input filter). */
export type HandoffFilter = NonNullable<
  Extract<HandoffEntry, { inputFilter?: unknown }>['inputFilter']
>;

/** Options of {@link Handoff}. */
export interface HandoffDecoratorOptions {
  /** Names the target (the model calls `transfer_to_<name>`); default the target class name. */
  readonly name?: string;
  /** What the model reads about when to hand off; default names the agent. */
  readonly description?: string;
  /** Rewrites what the target sees of the conversation. */
  readonly inputFilter?: HandoffFilter;
}

/** The target of a `@Handoff`: an `@Agent` class, or a function returning one (cycles). */
export type HandoffTarget = AnyClass | (() => AnyClass);

/** What `@Handoff` records. */
export interface HandoffRecord {
  readonly target: unknown;
  readonly options: Readonly<HandoffDecoratorOptions>;
}

/** A checked `@Handoff` declaration of an agent class. */
export interface HandoffDeclaration {
  /** The target agent class (a function target is called on first use: cycles are allowed). */
  readonly target: () => AnyClass;
  readonly options: Readonly<HandoffDecoratorOptions>;
  /** The class that declared it (a base class for inherited handoffs). */
  readonly declaredBy: string;
}

/**
 * Lets the agent hand the conversation to another `@Agent` class: the model sees a
 * `transfer_to_<name>` tool, and calling it continues the run with the target's instructions,
 * tools and output. Records metadata only; the container (`golemModule`) and the Nest module
 * (`GolemModule.forFeature`) resolve the target among the agents they bind — give a function,
 * `@Handoff(() => BillingAgent)`, when the target class is declared later or the two agents hand
 * off to each other. Repeat it for several targets; a subclass adds to its base's handoffs.
 *
 * ```ts
 * @Agent({ model: 'default' })
 * @Handoff(() => BillingAgent, { description: 'Questions about invoices' })
 * class TriageAgent {}
 * ```
 */
export function Handoff(
  target: HandoffTarget,
  options?: HandoffDecoratorOptions,
): (agent: AnyClass) => void {
  return (agent) => {
    const record: HandoffRecord = { target, options: { ...(options ?? {}) } };
    appendOwn(HANDOFF_KEY, agent, record);
  };
}

/** Whether `value` is a class decorated with `@Agent` (itself or a base). */
function isAgentClass(value: unknown): value is AnyClass {
  return (
    typeof value === 'function' &&
    classChain(value).some((owner) => readOwn(METADATA_KEYS.agent, owner) !== undefined)
  );
}

/**
 * The `@Handoff` declarations of an agent class and its bases (base classes' first, in
 * declaration order). A target is checked when it is first used (a function target is called
 * then); a target that is not an `@Agent` class is a `ConfigError` (component `decorators`).
 */
export function handoffsOf(agentClass: object): readonly HandoffDeclaration[] {
  const declarations: HandoffDeclaration[] = [];
  for (const owner of classChain(agentClass)) {
    const records = (readOwn(HANDOFF_KEY, owner) ?? []) as readonly HandoffRecord[];
    const declaredBy = classNameOf(owner);
    // Class decorators apply bottom-up: reverse to get the order they are written in.
    for (const record of [...records].reverse()) {
      const { target, options } = record;
      declarations.push({ target: resolver(target, declaredBy), options, declaredBy });
    }
  }
  return declarations;
}

function resolver(target: unknown, declaredBy: string): () => AnyClass {
  const fail = (got: unknown): Error =>
    agentDefinitionError(
      'invalid-option',
      `@Handoff target is ${describe(got)}, not an @Agent class`,
      {
        className: declaredBy,
        hint: 'pass the agent class, @Handoff(BillingAgent), or a function returning it, @Handoff(() => BillingAgent) (an undefined target usually means a circular import)',
      },
    );
  if (isAgentClass(target)) return () => target;
  if (typeof target !== 'function' || 'prototype' in target) throw fail(target);
  return () => {
    const resolved: unknown = (target as () => unknown)();
    if (!isAgentClass(resolved)) throw fail(resolved);
    return resolved;
  };
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === 'function') return `the class or function ${classNameOf(value)}`;
  return typeof value;
}
