import { ConfigError } from '../src/core/index';

/**
 * What is wrong with a decorated class. Each names one declaration mistake; the error message
 * names the class and member and says how to fix it.
 */
export type AgentDefinitionErrorKind =
  /** The class (or value) has no `@Agent` decorator, or a class was passed where an instance is needed. */
  | 'not-an-agent'
  /** `@Tool()` on a getter or setter. */
  | 'tool-on-accessor'
  /** `@Tool()` on a symbol-keyed method without an explicit `name`. */
  | 'tool-on-symbol'
  /** `@Tool()` or `@Instructions()` on something that is not an instance method (a property, a static member). */
  | 'not-a-method'
  /** Two tools with one name (in one class, across a class and its bases, or clashing with the output tool). */
  | 'duplicate-tool'
  /** A tool name outside 1–64 letters, digits, `_` or `-`. */
  | 'invalid-tool-name'
  /**
   * The toolchain dropped decorator metadata (tsx, esbuild, Vite ≤ 7) and nothing explicit
   * replaces it: a tool method without `design:paramtypes` or `@Tool({ args })`, or a DTO
   * property without `design:type` whose validators do not state its type.
   */
  | 'missing-metadata'
  /** The first parameter's reflected type is not a DTO class (an interface, union, primitive, `import type`…). */
  | 'unreflectable-args'
  /** `@Tool({ args })` disagrees with the reflected parameter type. */
  | 'args-mismatch'
  /** A DTO class that cannot be validated: no class-validator decorators, an undecorated field, a constructor that needs arguments. */
  | 'invalid-dto'
  /** A nested DTO property without `@Type(() => X)` (or with an unresolvable type). */
  | 'nested-without-type'
  /** `@IsEnum` over a numeric enum (class-validator accepts member names; the schema is wrong). */
  | 'numeric-enum'
  /** Two different DTO classes with one name inside one schema (they would be merged). */
  | 'schema-name-collision'
  /** A validator that only works asynchronously (validation at the boundary is synchronous). */
  | 'async-validator'
  /** `@Output` with something that is not a validatable DTO class, or declared twice. */
  | 'invalid-output'
  /** `@Instructions` with a non-string text, or an instructions method that returned a non-string. */
  | 'instructions-not-string'
  /** An `@Agent` option, or the assembled agent configuration, is invalid. */
  | 'invalid-option'
  /** `@Guardrail` with an unknown phase or options, or on something that is not an instance method. */
  | 'invalid-guardrail';

/** Where a definition error was found. */
export interface AgentDefinitionErrorInit {
  /** The class name (`(anonymous)` for an anonymous class). */
  className: string;
  /** The member (method, property or DTO field), when the mistake is on one. */
  member?: string;
  /** The fix, appended to the message. */
  hint?: string;
  cause?: unknown;
}

/**
 * A decorated class declares something the builder cannot compile: a {@link ConfigError} of
 * component `decorators` whose `reason` says what. The message names the class and member and
 * says how to fix it; `className`, `member` and `hint` are set when known.
 */
export function agentDefinitionError(
  reason: AgentDefinitionErrorKind,
  message: string,
  init: AgentDefinitionErrorInit,
): ConfigError {
  const where = init.member === undefined ? init.className : `${init.className}.${init.member}`;
  const hint = init.hint === undefined || init.hint === '' ? '' : `; ${init.hint}`;
  return new ConfigError(`${where}: ${message}${hint}`, {
    component: 'decorators',
    reason,
    className: init.className,
    member: init.member,
    hint: init.hint,
    cause: init.cause,
  });
}

/** The display name of a class, for messages. */
export function classNameOf(target: unknown): string {
  if (typeof target !== 'function') return '(not a class)';
  const name = (target as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : '(anonymous)';
}

/** The display name of a member key, for messages. */
export function memberName(key: string | symbol): string {
  return typeof key === 'symbol' ? `[${key.toString()}]` : key;
}
