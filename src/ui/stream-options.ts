import { randomUUID } from 'node:crypto';
import { RunError } from '../core/engine/errors';
import { ConfigError } from '../core/kit/config-error';
import type { Result } from '../core/engine/result';
import type { RunStreamEvent } from '../core/engine/stream-event-types';
import { brandOf } from '../core/kit/error-base';

/** A run whose typed events can be streamed to a UI: a `RunStream` (`agent.runStream(…)`). */
export interface UIEventSource<Output = unknown> {
  readonly events: AsyncIterable<RunStreamEvent<Output>>;
}

/** What {@link UIMessageStreamOptions.messageMetadata} is called with. */
export type UIMetadataPart<Output = unknown> =
  | { type: 'start' }
  | { type: 'finish'; result: Result<Output> }
  | { type: 'error'; error: RunError };

/** Options of `toUIMessageStream` and the response helpers built on it. */
export interface UIMessageStreamOptions<Output = unknown> {
  /** The assistant message's id (sent on `start`); default `generateId()`. */
  messageId?: string;
  /** Makes message ids; default `crypto.randomUUID()`. */
  generateId?: () => string;
  /**
   * Extra message metadata for `start` and for `finish` (or the failure), merged over Golem's own
   * (`runId`, `usage`, `pending`, `stage`). Return `undefined` to add nothing.
   */
  messageMetadata?: (part: UIMetadataPart<Output>) => Record<string, unknown> | undefined;
  /**
   * The `error` chunk's text: `error` is the `RunError` of a failed run, or the error that kept a
   * run from starting (`RunInputError`, `ConfigError`, a store's error). Default: the stage and the
   * cause's kind only (`The run failed at the "model" stage (ProviderError).`), never a message.
   */
  errorText?: (error: unknown) => string;
  /** A failed tool call's `errorText`; default names the tool and the error's kind only. */
  toolErrorText?: (error: unknown, call: { callId: string; toolName: string }) => string;
  /** Stream the model's reasoning as reasoning parts; default `true`. */
  sendReasoning?: boolean;
}

/** The options with defaults applied. Internal. */
export interface ResolvedStreamOptions<Output> {
  messageId: string;
  generateId: () => string;
  messageMetadata: UIMessageStreamOptions<Output>['messageMetadata'];
  errorText: (error: unknown) => string;
  toolErrorText: (error: unknown, call: { callId: string; toolName: string }) => string;
  sendReasoning: boolean;
}

/** The kind of an error for a client-safe text: a Golem error's kind, else its class name. */
export function errorKind(error: unknown): string {
  const brand = brandOf(error);
  if (brand !== undefined) return brand;
  return error instanceof Error ? error.name : 'Error';
}

/**
 * The default `errorText`: for a `RunError` its stage and its cause's kind, for an error that kept
 * the run from starting its kind — nothing a secret could hide in.
 */
export function defaultErrorText(error: unknown): string {
  if (RunError.is(error))
    return `The run failed at the "${error.stage}" stage (${errorKind(error.cause)}).`;
  return `The run could not start (${errorKind(error)}).`;
}

function defaultToolErrorText(error: unknown, call: { toolName: string }): string {
  return `Tool "${call.toolName}" failed (${errorKind(error)}).`;
}

/** A `golem/ui` option is invalid: a {@link ConfigError} of component `ui`. */
function uiConfigError(message: string): ConfigError {
  return new ConfigError(message, { component: 'ui' });
}

function optionalFunction(options: object, name: string): void {
  const value: unknown = (options as Record<string, unknown>)[name];
  if (value !== undefined && typeof value !== 'function')
    throw uiConfigError(`golem/ui: option "${name}" must be a function, got ${typeof value}`);
}

/** Validates the options and applies the defaults; bad values throw `ConfigError`. Internal. */
export function resolveStreamOptions<Output>(
  options: UIMessageStreamOptions<Output> | undefined,
): ResolvedStreamOptions<Output> {
  const o: UIMessageStreamOptions<Output> = options ?? {};
  if (typeof o !== 'object')
    throw uiConfigError(`golem/ui: options must be an object, got ${typeof o}`);
  for (const name of ['generateId', 'messageMetadata', 'errorText', 'toolErrorText'])
    optionalFunction(o, name);
  if (o.sendReasoning !== undefined && typeof o.sendReasoning !== 'boolean')
    throw uiConfigError('golem/ui: option "sendReasoning" must be a boolean');
  if (o.messageId !== undefined && (typeof o.messageId !== 'string' || o.messageId === ''))
    throw uiConfigError('golem/ui: option "messageId" must be a non-empty string');
  const generateId = o.generateId ?? randomUUID;
  return {
    messageId: o.messageId ?? generateId(),
    generateId,
    messageMetadata: o.messageMetadata,
    errorText: o.errorText ?? defaultErrorText,
    toolErrorText: o.toolErrorText ?? defaultToolErrorText,
    sendReasoning: o.sendReasoning ?? true,
  };
}
