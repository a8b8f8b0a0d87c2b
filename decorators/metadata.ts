/**
 * Where the decorators record what they see: own metadata (reflect-metadata) on the class
 * constructor, under namespaced keys. Records are frozen arrays replaced on every write
 * (copy-on-write), so decorating a subclass never changes what its base recorded.
 */
import type { AgentOptions } from './agent-options';
import type { ToolOptions } from './tool-options';
import type { OutputOptions } from './output-options';

/** Metadata keys, namespaced so they cannot clash with other libraries. */
export const METADATA_KEYS = Object.freeze({
  agent: 'golem:agent',
  instructions: 'golem:instructions',
  tools: 'golem:tools',
  output: 'golem:output',
  nullable: 'golem:nullable',
  description: 'golem:description',
  guardrails: 'golem:guardrails',
});

/** What `@Tool` records. */
export interface ToolRecord {
  readonly member: string | symbol;
  readonly options: Readonly<ToolOptions>;
  /** Whether it decorated a static member (the target was the constructor). */
  readonly isStatic: boolean;
}

/** What `@Instructions` records: class text, or a method evaluated per run. */
export type InstructionsRecord =
  | { readonly kind: 'text'; readonly text: unknown }
  | { readonly kind: 'method'; readonly member: string | symbol; readonly isStatic: boolean };

/** What `@Output` records. */
export interface OutputRecord {
  readonly dto: unknown;
  readonly options: Readonly<OutputOptions>;
  /** How many times `@Output` was applied to this class (more than once is a definition error). */
  readonly count: number;
}

/** What `@Guardrail` records. */
export interface GuardrailRecord {
  readonly member: string | symbol;
  readonly phase: unknown;
  readonly options: Readonly<Record<string, unknown>>;
  readonly isStatic: boolean;
}

/** What `@Agent` records. */
export interface AgentRecord {
  readonly options: Readonly<AgentOptions>;
}

/** The class a decorator target belongs to: the constructor itself, or a prototype's constructor. */
export function ownerOf(target: object): { ctor: object; isStatic: boolean } {
  if (typeof target === 'function') return { ctor: target, isStatic: true };
  return { ctor: (target as { constructor: object }).constructor, isStatic: false };
}

/** Reads the metadata recorded on `ctor` itself (never its bases); callers know its shape. */
export function readOwn(key: string, ctor: object): unknown {
  return Reflect.getOwnMetadata(key, ctor);
}

/** The own list under `key` (empty when nothing was recorded). */
function ownList(key: string, ctor: object): readonly unknown[] {
  const list = readOwn(key, ctor);
  return Array.isArray(list) ? (list as readonly unknown[]) : [];
}

/** Appends `record` to the own list under `key` (a new frozen array). */
export function appendOwn(key: string, ctor: object, record: unknown): void {
  Reflect.defineMetadata(key, Object.freeze([...ownList(key, ctor), record]), ctor);
}

/** Prepends `record` to the own list under `key` (a new frozen array). */
export function prependOwn(key: string, ctor: object, record: unknown): void {
  Reflect.defineMetadata(key, Object.freeze([record, ...ownList(key, ctor)]), ctor);
}

/** Replaces the own value under `key`. */
export function writeOwn(key: string, ctor: object, value: unknown): void {
  Reflect.defineMetadata(key, Object.freeze(value), ctor);
}

/** Reads a per-property record (e.g. `@Nullable`) on a class or any of its bases. */
export function readProperty(key: string, ctor: object, property: string): unknown {
  return Reflect.getMetadata(key, ctor, property);
}

/** Writes a per-property record on the class itself. */
export function writeProperty(key: string, ctor: object, property: string, value: unknown): void {
  Reflect.defineMetadata(key, value, ctor, property);
}

/** The classes from the root-most base to `ctor` itself (functions only, `Function.prototype` excluded). */
export function classChain(ctor: object): object[] {
  const chain: object[] = [];
  for (
    let current: unknown = ctor;
    typeof current === 'function' && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    chain.unshift(current);
  }
  return chain;
}
