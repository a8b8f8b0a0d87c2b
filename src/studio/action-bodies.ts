import { isRecord } from '../core/kit/guards';
import type { CancelBody, DecisionsBody, ReplayBody } from './api-types';

function stringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
}

/** The decisions body checked, or why it is refused. */
export function decisionsOf(body: unknown): DecisionsBody | string {
  if (!isRecord(body)) return 'the body must be { approvals?, external? }';
  const { approvals, external } = body;
  if (approvals !== undefined) {
    if (!isRecord(approvals)) return 'approvals must be { callId: { approved, reason? } }';
    for (const value of Object.values(approvals)) {
      if (!isRecord(value) || typeof value.approved !== 'boolean')
        return 'approvals must be { callId: { approved, reason? } }';
      if (value.reason !== undefined && typeof value.reason !== 'string')
        return 'an approval reason must be a string';
    }
  }
  if (external !== undefined && !stringRecord(external)) return 'external must be { callId: text }';
  return body;
}

/** The replay body checked, or why it is refused. */
export function replayOf(body: unknown): ReplayBody | string {
  if (!isRecord(body)) return 'the body must be { fromTurn, prompt?, model?, toolResults? }';
  if (typeof body.fromTurn !== 'number') return 'fromTurn must be a number';
  if (body.prompt !== undefined && typeof body.prompt !== 'string') return 'prompt must be text';
  if (body.model !== undefined && typeof body.model !== 'string') return 'model must be a name';
  if (body.toolResults !== undefined && !stringRecord(body.toolResults))
    return 'toolResults must be { callId: text }';
  return body as unknown as ReplayBody;
}

/** The longest cancel reason the studio passes on (it is stored with the run). */
const MAX_REASON = 1000;

/** The cancel body checked (`{ reason? }`, the reason trimmed; empty: none), or why it is refused. */
export function cancelOf(body: unknown): CancelBody | string {
  if (!isRecord(body)) return 'the body must be { reason? }';
  if (body.reason === undefined) return {};
  if (typeof body.reason !== 'string') return 'reason must be text';
  const reason = body.reason.trim();
  if (reason.length > MAX_REASON) return `reason must be at most ${String(MAX_REASON)} characters`;
  return reason === '' ? {} : { reason };
}
