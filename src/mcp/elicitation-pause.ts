import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { isRecord } from '../core/kit/guards';
import type { McpElicitationAnswer, McpElicitationRequest } from './capability-types';
import { mcpConfigError } from './errors';

/** How a paused call's `reason` starts; the elicitation follows as JSON. */
const REASON_PREFIX = 'mcp elicitation: ';

/** One bridged call that an elicitation may pause. Internal. */
export interface PausableCall {
  readonly callId: string;
  /** Aborts the call's `tools/call` when an elicitation pauses it. */
  readonly signal: AbortSignal;
  /** The elicitation that paused it, once one did. */
  readonly asked: McpElicitationRequest | undefined;
}

interface OpenCall extends PausableCall {
  asked: McpElicitationRequest | undefined;
  readonly controller: AbortController;
  readonly approved: boolean;
}

/**
 * `elicitation: { pauseRun: true }`: an elicitation that arrives while exactly one bridged call of
 * the client is in flight pauses that call (it is aborted and defers for approval, the
 * elicitation answered `cancel`); the answer given with `McpClient.answerElicitation` answers
 * the same elicitation when the approved call runs again. Internal.
 */
export class ElicitationPause {
  private readonly calls = new Set<OpenCall>();
  private readonly answers = new Map<string, McpElicitationAnswer>();

  /** Stores the user's answer for the paused call `callId` (used once, by its re-run). */
  answer(callId: string, answer: McpElicitationAnswer): void {
    this.answers.set(callId, answer);
  }

  /** A bridged call starts (`approved`: it is an approved re-run). */
  begin(callId: string, approved: boolean): PausableCall {
    const controller = new AbortController();
    const call: OpenCall = {
      callId,
      approved,
      controller,
      signal: controller.signal,
      asked: undefined,
    };
    this.calls.add(call);
    return call;
  }

  /** A bridged call settled. */
  end(call: PausableCall): void {
    this.calls.delete(call as OpenCall);
  }

  /**
   * Decides an elicitation: the stored answer of the sole call in flight; or, for a first run of
   * the sole call, `cancel` after pausing the call; `undefined` when the elicitation cannot be
   * attributed to one call or the call cannot pause (a re-run, or already paused) — the handler
   * answers then.
   */
  take(asked: McpElicitationRequest): McpElicitationAnswer | undefined {
    if (this.calls.size !== 1) return undefined;
    const [call] = this.calls;
    if (call === undefined) return undefined;
    const stored = this.answers.get(call.callId);
    if (stored !== undefined) {
      this.answers.delete(call.callId);
      return stored;
    }
    if (call.approved || call.asked !== undefined) return undefined;
    call.asked = asked;
    call.controller.abort(new Error('golem: the call paused for an elicitation'));
    return { action: 'cancel' };
  }
}

/** The `reason` of a call paused for `asked`: a readable prefix, then the elicitation as JSON. */
export function pausedReason(asked: McpElicitationRequest): string {
  return `${REASON_PREFIX}${JSON.stringify(asked)}`;
}

/**
 * The elicitation a paused run waits for, read back from one of its pending approvals
 * (`result.pending.approvals[i]`, also after a stored run is loaded in another process):
 * `server`, `mode`, `message` and `requestedSchema`. `undefined` when the call paused for another
 * reason. Show it to the user, give the answer to `client.answerElicitation(callId, answer)`, then
 * resume with the call approved (or denied, to decline without re-running the tool).
 */
export function mcpElicitationOf(pending: {
  readonly reason: string;
}): McpElicitationRequest | undefined {
  if (!pending.reason.startsWith(REASON_PREFIX)) return undefined;
  try {
    const value: unknown = JSON.parse(pending.reason.slice(REASON_PREFIX.length));
    if (!isRecord(value) || typeof value.server !== 'string' || typeof value.message !== 'string')
      return undefined;
    return value as unknown as McpElicitationRequest;
  } catch {
    return undefined;
  }
}

/** Checks an answer given to `answerElicitation`. Internal. */
export function checkedPauseAnswer(callId: unknown, answer: unknown): McpElicitationAnswer {
  if (typeof callId !== 'string' || callId === '')
    throw mcpConfigError('callId', 'must be the pending call id (a non-empty string)');
  const action = isRecord(answer) ? answer.action : undefined;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel')
    throw mcpConfigError(
      'answer',
      "must be { action: 'accept', content } or { action: 'decline' } or { action: 'cancel' }",
    );
  if (isRecord(answer) && answer.content !== undefined && !isRecord(answer.content))
    throw mcpConfigError('answer.content', 'must be an object of field values');
  return answer as McpElicitationAnswer;
}

const pauses = new WeakMap<Client, ElicitationPause>();

/** Attaches the pause state to an SDK client (at connect). Internal. */
export function attachPause(client: Client, pause: ElicitationPause): void {
  pauses.set(client, pause);
}

/** The pause state of an SDK client, when its elicitation option has `pauseRun`. Internal. */
export function pauseOf(client: Client): ElicitationPause | undefined {
  return pauses.get(client);
}
