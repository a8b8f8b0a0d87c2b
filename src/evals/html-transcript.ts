import type { JsonValue } from '../core/index';
import { isRecord } from '../core/kit/guards';
import { escapeHtml, escapeValue } from './html-escape';

/** Roles given their own colour; anything else renders as `unknown`. */
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * A run's transcript (messages in the durable JSON shape: `role`, `content`, `parts`,
 * `toolCalls` with `id`/`name`/`args`, `toolCallId`/`toolName`, `thinking`) as HTML: one block
 * per message with its role, text, tool calls and their arguments, and tool results. Every text
 * is escaped; part URLs are shown as text, never loaded. A message of another shape is shown as
 * JSON.
 */
export function renderTranscript(messages: readonly JsonValue[]): string {
  if (messages.length === 0)
    return '<p class="muted">No transcript: the task returned a plain value.</p>';
  return `<div class="transcript">${messages.map(renderMessage).join('')}</div>`;
}

function renderMessage(message: JsonValue): string {
  if (!isRecord(message)) return `<div class="msg"><pre>${escapeValue(message)}</pre></div>`;
  const role = typeof message.role === 'string' ? message.role : 'unknown';
  const roleClass = ROLES.has(role) ? role : 'unknown';
  const head = [`<span class="role">${escapeHtml(role)}</span>`];
  if (typeof message.toolName === 'string')
    head.push(`result of <b>${escapeHtml(message.toolName)}</b>`);
  if (typeof message.toolCallId === 'string')
    head.push(`<code>${escapeHtml(message.toolCallId)}</code>`);
  const body: string[] = [];
  if (Array.isArray(message.thinking) && message.thinking.length > 0) {
    const text = message.thinking
      .map((block) =>
        isRecord(block) && typeof block.text === 'string' ? block.text : '[redacted]',
      )
      .join('\n\n');
    body.push(
      `<details class="thinking"><summary>Thinking</summary><pre>${escapeValue(text)}</pre></details>`,
    );
  }
  if (typeof message.content === 'string' && message.content !== '')
    body.push(`<div class="msg-text">${escapeValue(message.content)}</div>`);
  if (Array.isArray(message.parts) && message.parts.length > 0)
    body.push(`<ul class="parts">${message.parts.map(renderPart).join('')}</ul>`);
  if (Array.isArray(message.toolCalls))
    for (const call of message.toolCalls) body.push(renderCall(call));
  if (Array.isArray(message.hostedToolCalls) && message.hostedToolCalls.length > 0)
    body.push(
      `<div class="call"><div class="call-head">hosted tool calls</div><pre>${escapeValue(message.hostedToolCalls)}</pre></div>`,
    );
  if (body.length === 0) body.push('<div class="msg-text muted">(empty)</div>');
  return `<div class="msg ${roleClass}"><div class="msg-head">${head.join(' ')}</div>${body.join('')}</div>`;
}

function renderCall(call: unknown): string {
  if (!isRecord(call)) return `<div class="call"><pre>${escapeValue(call)}</pre></div>`;
  const name = typeof call.name === 'string' ? call.name : '?';
  const id = typeof call.id === 'string' ? ` <code>${escapeHtml(call.id)}</code>` : '';
  const args = call.args === undefined || call.args === null ? '{}' : escapeValue(call.args);
  return (
    `<div class="call"><div class="call-head">→ calls <b>${escapeHtml(name)}</b>${id}</div>` +
    `<pre>${args}</pre></div>`
  );
}

function renderPart(part: unknown): string {
  if (!isRecord(part)) return `<li>${escapeValue(part)}</li>`;
  const facts: string[] = [];
  for (const key of ['kind', 'mediaType', 'name', 'url'] as const) {
    const value = part[key];
    if (typeof value === 'string') facts.push(escapeHtml(value));
  }
  if (typeof part.data === 'string')
    facts.push(`${String(Math.round((part.data.length * 3) / 4))} bytes inline`);
  return `<li>${facts.join(' · ')}</li>`;
}
