import type { Message, Result } from '../../src/core/index';

/** One line for a message: the role, then its text or its tool calls. */
export function messageLine(message: Message): string {
  const text = (message.content ?? '').replace(/\s*\n\s*/g, ' ');
  if (message.role === 'tool')
    return `tool ${message.toolName ?? ''} [${message.toolCallId ?? ''}]: ${text}`;
  const calls = (message.toolCalls ?? []).map((call) => `${call.name}(${call.args}) [${call.id}]`);
  if (calls.length > 0)
    return `${message.role}${text === '' ? '' : `: ${text};`} calls ${calls.join(', ')}`;
  return `${message.role}: ${text}`;
}

/** The output as printed: text as is, anything else as JSON. */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  const text = JSON.stringify(output) as string | undefined;
  return text ?? String(output);
}

/** The lines `golem run` prints for a result: output (or pending calls), messages, usage. */
export function resultLines(result: Result<unknown>): string[] {
  const lines: string[] = [];
  if (result.pending === undefined) {
    lines.push(`output: ${outputText(result.output)}`);
  } else {
    const { approvals, external } = result.pending;
    const calls = [...approvals, ...external].map((call) => `${call.toolName} [${call.callId}]`);
    lines.push(`paused: ${calls.length} call(s) wait to be resumed: ${calls.join(', ')}`);
  }
  lines.push('messages:');
  for (const message of result.messages) lines.push(`  ${messageLine(message)}`);
  lines.push(
    `usage: ${result.usage.inputTokens} input + ${result.usage.outputTokens} output tokens, ${result.requests} requests, ${result.toolCalls} tool calls`,
  );
  return lines;
}
