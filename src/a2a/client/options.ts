import {
  ConfigError,
  type AgentConfig,
  type ConfigComponent,
  type FetchLike,
} from '../../core/index';
import type { Task } from '../wire-types';
import type { PendingA2ATask } from './pending-task';
import { isRecord } from '../../core/kit/guards';

/** Options of `connectA2A`. */
export interface ConnectA2AOptions {
  /** The fetch every request goes through; default the global `fetch`. */
  readonly fetch?: FetchLike;
  /**
   * Headers sent with the card request and every call (e.g. `authorization`). Their values are
   * kept out of error messages.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** Cancels the card request. */
  readonly signal?: AbortSignal;
  /** Largest accepted response body (the card, a JSON-RPC response, one stream event); default 4 MiB. */
  readonly maxResponseBytes?: number;
}

/** Options of one send or stream. */
export interface A2ASendOptions {
  /** Continues this task (e.g. one waiting for input). */
  readonly taskId?: string;
  /** The conversation the message belongs to. */
  readonly contextId?: string;
  /** Aborts the request; for a known task, also sends `CancelTask` for it. */
  readonly signal?: AbortSignal;
}

/** Options of one `getTask` or `cancelTask` call. */
export interface A2ACallOptions {
  /** Aborts the request. */
  readonly signal?: AbortSignal;
}

/** Options of `A2AConnection.asTool`. */
export interface A2AToolOptions {
  /** The tool's name; default the card's name made portable (letters, digits, `_`, `-`). */
  readonly name?: string;
  /** The tool's description; default the card's description and skills. */
  readonly description?: string;
  /**
   * When the remote task needs input (or authorization): `'defer'` (default) pauses the golem run
   * on the call (`result.pending.external`, reason read by `pendingA2ATask`) until the caller
   * answers the remote task with `A2AConnection.answer` and resumes with its result; the agent
   * needs `deferredTools: true`. `'model'` feeds the question back to the model as a retry.
   */
  readonly inputRequired?: 'defer' | 'model';
}

/**
 * What answering a remote task gave: the result to resume the paused golem run with
 * (`external: { [callId]: result }`), or another question of the remote agent.
 */
export type A2AAnswer =
  | {
      /** The remote task finished (completed, or ended otherwise: `result` says how). */
      readonly done: true;
      /** The text to resume the paused call with: the artifacts, or how the task ended. */
      readonly result: string;
      /** The task's final state. */
      readonly state: Task['status']['state'];
    }
  | {
      /** The remote agent needs more input (or authorization). */
      readonly done: false;
      /** The remote task, still waiting; answer it again. */
      readonly task: PendingA2ATask;
    };

/**
 * Options of `A2AConnection.asAgent`: the golem agent's name and description (default the card's),
 * and the run-level options that make sense for a remote agent.
 */
export type A2AAgentOptions = Pick<
  AgentConfig<unknown, string>,
  | 'name'
  | 'description'
  | 'store'
  | 'instrumentation'
  | 'runTimeout'
  | 'turnTimeout'
  | 'onEvent'
  | 'middleware'
  | 'guardrails'
>;

/** Validated connection options. Internal. */
export interface ResolvedOptions {
  readonly fetch: FetchLike;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal | undefined;
  readonly maxResponseBytes: number;
  /** Header values, redacted from error messages. */
  readonly secrets: readonly string[];
}

/** The default cap on a response body or one stream event. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The `ConfigError` component of `golem/a2a` (added to `ConfigComponent` by the entry point). */
export const A2A_COMPONENT: ConfigComponent = 'a2a';

/** A `ConfigError` for the option `option` of `connectA2A`. */
export function optionError(option: string, message: string): ConfigError {
  return new ConfigError(`connectA2A: ${message}`, { component: A2A_COMPONENT, option });
}

/** Checks the URL and options of `connectA2A`; a mistake is a `ConfigError` naming the fix. */
export function resolveOptions(url: unknown, options: unknown): ResolvedOptions {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    throw optionError(
      'url',
      'the agent URL must be an absolute http(s) URL, e.g. "https://agent.example.com"',
    );
  }
  if (options !== undefined && !isRecord(options)) {
    throw optionError(
      'options',
      'options must be an object { fetch?, headers?, signal?, maxResponseBytes? }',
    );
  }
  const o = (options ?? {}) as ConnectA2AOptions;
  if (o.fetch !== undefined && typeof o.fetch !== 'function') {
    throw optionError('fetch', 'fetch must be a function (input, init) => Promise<Response>');
  }
  const headers: Record<string, string> = {};
  if (o.headers !== undefined) {
    if (!isRecord(o.headers)) throw optionError('headers', 'headers must be an object of strings');
    for (const [name, value] of Object.entries(o.headers)) {
      if (typeof value !== 'string') {
        throw optionError('headers', `header "${name}" must be a string`);
      }
      headers[name] = value;
    }
  }
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) {
    throw optionError('signal', 'signal must be an AbortSignal');
  }
  const max = o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(max) || max < 1) {
    throw optionError(
      'maxResponseBytes',
      'maxResponseBytes must be a positive whole number of bytes',
    );
  }
  const fetcher: FetchLike = o.fetch ?? ((input, init) => fetch(input, init));
  return {
    fetch: fetcher,
    headers,
    signal: o.signal,
    maxResponseBytes: max,
    secrets: secretsOf(headers),
  };
}

/** Header values and their long words (the token of `Bearer <token>`), to redact from errors. */
function secretsOf(headers: Readonly<Record<string, string>>): string[] {
  const out = new Set<string>();
  for (const value of Object.values(headers)) {
    if (value.trim().length >= 4) out.add(value);
    for (const word of value.split(/\s+/)) if (word.length >= 8) out.add(word);
  }
  return [...out];
}
