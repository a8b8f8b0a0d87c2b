import { isRecord } from '../../core/kit/guards';
import type { Approval, DeferredResults } from '../../core/index';
import { A2AProtocolError } from '../a2a-error';
import type { Message } from '../wire-types';
import type { TaskRecord } from './task-registry';

/** The prompt a message carries: its text parts, data parts as JSON, URLs, one per line. */
export function promptOf(message: Message): string {
  const lines: string[] = [];
  for (const part of message.parts) {
    if ('text' in part) lines.push(part.text);
    else if ('data' in part) lines.push(JSON.stringify(part.data));
    else if ('url' in part) lines.push(part.url);
  }
  const prompt = lines.join('\n');
  if (prompt.trim() === '') {
    throw new A2AProtocolError('A2A: message.parts must hold at least one text or data part');
  }
  return prompt;
}

function approvalOf(value: unknown, callId: string): Approval {
  if (typeof value === 'boolean') return { approved: value };
  if (isRecord(value) && typeof value.approved === 'boolean') {
    return typeof value.reason === 'string'
      ? { approved: value.approved, reason: value.reason }
      : { approved: value.approved };
  }
  throw new A2AProtocolError(
    `A2A: approvals.${callId} must be true, false or { approved, reason? }`,
  );
}

/**
 * The decisions a message sends to a task in INPUT_REQUIRED: a data part
 * `{ approvals: { [callId]: true | false | { approved, reason } }, external: { [callId]: text } }`
 * covering every pending call (nothing else counts: the server's record of the calls decides).
 */
export function resumeResultsOf(message: Message, record: TaskRecord): DeferredResults {
  const part = message.parts.find(
    (p) => 'data' in p && isRecord(p.data) && ('approvals' in p.data || 'external' in p.data),
  );
  const data = part !== undefined && 'data' in part && isRecord(part.data) ? part.data : {};
  const given = {
    approvals: isRecord(data.approvals) ? data.approvals : {},
    external: isRecord(data.external) ? data.external : {},
  };
  const approvals: Record<string, Approval> = {};
  const external: Record<string, string> = {};
  const missing: string[] = [];
  for (const callId of record.pendingCalls.approvals) {
    if (!Object.hasOwn(given.approvals, callId)) missing.push(callId);
    else approvals[callId] = approvalOf(given.approvals[callId], callId);
  }
  for (const callId of record.pendingCalls.external) {
    const value = Object.hasOwn(given.external, callId) ? given.external[callId] : undefined;
    if (typeof value === 'string') external[callId] = value;
    else missing.push(callId);
  }
  if (missing.length > 0) {
    throw new A2AProtocolError(
      `A2A: task ${record.id} needs input: send a data part { approvals: { callId: true|false }, external: { callId: "result" } } covering ${missing.join(', ')}`,
      undefined,
      { missing },
    );
  }
  return { approvals, external };
}
