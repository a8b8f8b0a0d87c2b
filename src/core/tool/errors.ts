import { GolemError, brandGuard } from '../kit/error-base';
import { ConfigError } from '../kit/config-error';

/**
 * A tool definition is invalid: a {@link ConfigError} of component `tool`, reason
 * `invalid-definition`; the message names the tool and the fix.
 */
export function toolDefinitionError(
  toolName: string,
  message: string,
  options?: { cause?: unknown },
): ConfigError {
  return new ConfigError(message, {
    component: 'tool',
    reason: 'invalid-definition',
    toolName,
    cause: options?.cause,
  });
}

/**
 * A tool's return value cannot be handed to the model: it has no JSON form (a function, a symbol,
 * a `bigint`, a cycle). Fails the run at the `tool` stage; the message names the tool and the fix.
 */
export class ToolResultError extends GolemError {
  /** The tool whose return value could not be encoded. */
  readonly toolName: string;

  constructor(toolName: string, message: string, options?: { cause?: unknown }) {
    super('ToolResultError', message, options);
    this.toolName = toolName;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ToolResultError>('ToolResultError');
}

/**
 * What a deferred call waits for: a human decision, or a result produced outside the run.
 * @inline
 */
export type DeferralKind = 'approval' | 'external';

/** Thrown by a tool to pause the run on this call until the application resolves it. */
export class Deferred extends GolemError {
  readonly deferral: DeferralKind;
  readonly reason: string;

  constructor(deferral: DeferralKind, reason = '') {
    super('Deferred', `tool call deferred for ${deferral}${reason === '' ? '' : `: ${reason}`}`);
    this.deferral = deferral;
    this.reason = reason;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<Deferred>('Deferred');
}

/** Pause this call until a human approves or denies it. */
export function requireApproval(reason = ''): Deferred {
  return new Deferred('approval', reason);
}

/** Pause this call until the application supplies its result. */
export function deferExternal(reason = ''): Deferred {
  return new Deferred('external', reason);
}
