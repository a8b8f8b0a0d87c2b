import { ConfigError } from '../src/core/index';
import type { DecoratorsReason } from '../src/core/kit/config-error';

/** What is wrong with a decorated class (the `decorators` reasons of `ConfigError`). */
export type AgentDefinitionErrorKind = DecoratorsReason;

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
