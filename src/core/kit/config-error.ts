import { GolemError, brandOf } from './error-base';
import { safeGet } from './safe-inspect';

/**
 * Where a configuration or installation mistake was found: the part of Golem whose options,
 * definitions or peer packages are wrong.
 */
export type ConfigComponent =
  | 'agent'
  | 'tool'
  | 'schema'
  | 'model'
  | 'fallback'
  | 'prices'
  | 'peers'
  | 'resolve'
  | 'ui'
  | 'otel'
  | 'testing'
  | 'mcp'
  | 'shell'
  | 'fileread'
  | 'webfetch'
  | 'skills'
  | 'decorators'
  | 'container'
  | 'nestjs'
  | 'memory'
  | 'middleware'
  | 'workflows'
  | 'evals'
  | 'a2a'
  | 'studio';

/**
 * What is wrong with a decorated class. Each names one declaration mistake; the error message
 * names the class and member and says how to fix it (the `decorators` reasons of a `ConfigError`).
 *
 * @inline
 */
export type DecoratorsReason =
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

/**
 * What is wrong. Most components raise only `invalid-option`; the others name the mistake:
 * - agent: `deferral-not-enabled` (a tool deferred its call, `deferredTools` is off);
 * - tool: `invalid-definition`; schema: `unusable-schema`; any component: `missing-peer`;
 * - resolve: `malformed`, `unknown-provider`, `missing-env`, `missing-test-model`,
 *   `invalid-config`;
 * - mcp: `tool-collision`;
 * - decorators: `not-an-agent`, `tool-on-accessor`, `tool-on-symbol`, `not-a-method`,
 *   `duplicate-tool`, `invalid-tool-name`, `missing-metadata`, `unreflectable-args`,
 *   `args-mismatch`, `invalid-dto`, `nested-without-type`, `numeric-enum`,
 *   `schema-name-collision`, `async-validator`, `invalid-output`, `instructions-not-string`,
 *   `invalid-option`, `invalid-guardrail`;
 * - container: `not-an-agent`, `unbound-agent`, `unbound-model`, `invalid-model`,
 *   `model-failed`, `invalid-options`, `missing-metadata`;
 * - nestjs: `missing-peer`, `missing-root`, `not-an-agent`, `unregistered-agent`,
 *   `unbound-model`, `invalid-model`, `model-failed`, `request-scoped-dependency`,
 *   `invalid-options`, `missing-store`.
 */
export type ConfigErrorReason =
  | 'invalid-option'
  | 'deferral-not-enabled'
  | 'invalid-definition'
  | 'unusable-schema'
  | 'missing-peer'
  | 'malformed'
  | 'unknown-provider'
  | 'missing-env'
  | 'missing-test-model'
  | 'invalid-config'
  | 'tool-collision'
  | DecoratorsReason
  | 'unbound-agent'
  | 'unbound-model'
  | 'invalid-model'
  | 'model-failed'
  | 'invalid-options'
  | 'missing-root'
  | 'unregistered-agent'
  | 'request-scoped-dependency'
  | 'missing-store';

/**
 * The details of a {@link ConfigError}: `component` is required, `reason` defaults to
 * `invalid-option`; every other field is set on the error only when given.
 *
 * @inline
 */
export interface ConfigErrorInit {
  component: ConfigComponent;
  reason?: ConfigErrorReason;
  /** The option at fault, e.g. `maxBytes` or `transport.url`. */
  option?: string;
  /** The model provider, e.g. `openai`. */
  provider?: string;
  /** The tool involved. */
  toolName?: string;
  /** Where the two colliding tools come from (`tool-collision`). */
  sources?: readonly [string, string];
  /** The Standard Schema library (`zod`, `valibot`, …). */
  vendor?: string;
  /** The golem entry point that needs the missing packages (`missing-peer`). */
  entryPoint?: string;
  /** The missing packages (`missing-peer`). */
  packages?: readonly string[];
  /** The command that installs them (`missing-peer`). */
  command?: string;
  /** The environment variables to set (`missing-env`). */
  variables?: readonly string[];
  /** The closest known name, or a corrected string. */
  suggestion?: string;
  /** The known names (`unknown-provider`). */
  known?: readonly string[];
  /** The decorated class the mistake is in. */
  className?: string;
  /** The member the mistake is on. */
  member?: string;
  /** How to fix it. */
  hint?: string;
  /** The agent class involved, by name. */
  agent?: string;
  /** The model binding name involved. */
  model?: string;
  /** The Nest module involved, by class name. */
  module?: string;
  cause?: unknown;
}

const DETAILS = [
  'option',
  'provider',
  'toolName',
  'sources',
  'vendor',
  'entryPoint',
  'packages',
  'command',
  'variables',
  'suggestion',
  'known',
  'className',
  'member',
  'hint',
  'agent',
  'model',
  'module',
] as const;

/**
 * Golem was configured or installed wrong: an invalid option, a malformed definition, a missing
 * peer package. Fail at boot and fix the configuration; never retry. `component` says where,
 * `reason` what; the message names the fix. Identity works across copies of the package through
 * {@link ConfigError.is} (a `Symbol.for` brand), not only `instanceof`.
 *
 * @example
 * ```ts
 * try {
 *   shell({ dir: '/nowhere' });
 * } catch (error) {
 *   if (ConfigError.is(error, 'shell')) console.error(error.option, error.message);
 * }
 * ```
 */
export class ConfigError extends GolemError {
  /** Where the mistake is (`agent`, `model`, `mcp`, …). */
  readonly component: ConfigComponent;
  /** What is wrong (`invalid-option`, `missing-peer`, `not-an-agent`, …). */
  readonly reason: ConfigErrorReason;
  /** The option at fault, when one is. */
  readonly option?: string;
  /** The model provider, when one is involved. */
  readonly provider?: string;
  /** The tool involved, when one is. */
  readonly toolName?: string;
  /** Where the two colliding tools come from (`tool-collision`). */
  readonly sources?: readonly [string, string];
  /** The Standard Schema library, when a schema is at fault. */
  readonly vendor?: string;
  /** The golem entry point that needs the missing packages (`missing-peer`). */
  readonly entryPoint?: string;
  /** The missing packages (`missing-peer`). */
  readonly packages?: readonly string[];
  /** The command that installs them (`missing-peer`). */
  readonly command?: string;
  /** The environment variables to set (`missing-env`). */
  readonly variables?: readonly string[];
  /** The closest known name, or a corrected string, when there is one. */
  readonly suggestion?: string;
  /** The known names (`unknown-provider`). */
  readonly known?: readonly string[];
  /** The decorated class the mistake is in. */
  readonly className?: string;
  /** The member the mistake is on, when there is one. */
  readonly member?: string;
  /** How to fix it, when the message appends a hint. */
  readonly hint?: string;
  /** The agent class involved, by name. */
  readonly agent?: string;
  /** The model binding name involved. */
  readonly model?: string;
  /** The Nest module involved, by class name. */
  readonly module?: string;

  constructor(message: string, init: ConfigErrorInit) {
    super('ConfigError', message, init.cause === undefined ? undefined : { cause: init.cause });
    this.component = init.component;
    this.reason = init.reason ?? 'invalid-option';
    const details = this as Record<string, unknown>;
    for (const key of DETAILS) if (init[key] !== undefined) details[key] = init[key];
  }

  /**
   * Whether `value` is a configuration error — of `component` and `reason` when given — from any
   * copy of the package. `ConfigError.is(e, undefined, 'missing-peer')` is any missing peer.
   * Never throws.
   */
  static is(
    value: unknown,
    component?: ConfigComponent,
    reason?: ConfigErrorReason,
  ): value is ConfigError {
    if (brandOf(value) !== 'ConfigError') return false;
    if (component !== undefined && safeGet(value, 'component') !== component) return false;
    return reason === undefined || safeGet(value, 'reason') === reason;
  }
}
