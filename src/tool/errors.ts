import { GolemError, hasKind } from '../model/error-base';

/** A tool definition is invalid; the message names the tool and the fix. */
export class ToolDefinitionError extends GolemError {
  readonly toolName: string;

  constructor(toolName: string, message: string) {
    super('ToolDefinitionError', message);
    this.toolName = toolName;
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is ToolDefinitionError {
    return hasKind(value, 'ToolDefinitionError');
  }
}

/** What a deferred call waits for: a human decision, or a result produced outside the run. */
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
  static is(value: unknown): value is Deferred {
    return hasKind(value, 'Deferred');
  }
}

/** Pause this call until a human approves or denies it. */
export function requireApproval(reason = ''): Deferred {
  return new Deferred('approval', reason);
}

/** Pause this call until the application supplies its result. */
export function deferExternal(reason = ''): Deferred {
  return new Deferred('external', reason);
}
