import type { Message, Model } from '../../core/index';
import { showValue } from '../../core/kit/safe-inspect';
import { evaluatorConfigError } from './options';

/**
 * A value as a judge reads it: a string verbatim, anything else as indented JSON, `undefined`
 * as `(none)`. Nothing is escaped: the fence around it (see {@link section}) keeps it apart.
 */
export function judgeText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '(none)';
  try {
    const text: unknown = JSON.stringify(value, null, 2);
    if (typeof text === 'string') return text;
  } catch {
    // Fall back to the one-line description.
  }
  return showValue(value);
}

/**
 * A titled prompt section with `body` inside a Markdown fence longer than any backtick run in
 * it, so the text is quoted verbatim and cannot close the fence early.
 */
export function section(title: string, body: string): string {
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `## ${title}\n${fence}\n${body}\n${fence}`;
}

/** The transcript as a judge reads it: one block per message (system messages left out). */
export function transcriptText(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      lines.push(`[tool result ${message.toolName ?? ''}] ${message.content ?? ''}`);
      continue;
    }
    if (message.content !== undefined && message.content !== '') {
      lines.push(`[${message.role}] ${message.content}`);
    }
    for (const call of message.toolCalls ?? []) {
      lines.push(`[${message.role} calls ${call.name}] ${call.args}`);
    }
  }
  return lines.length === 0 ? '(empty)' : lines.join('\n');
}

/** Checks a judge's common options: a model and a non-empty rubric. */
export function checkJudgeOptions(owner: string, model: unknown, rubric: unknown): void {
  if (
    typeof model !== 'object' ||
    model === null ||
    typeof (model as Partial<Model>).generate !== 'function'
  ) {
    throw evaluatorConfigError(`${owner}: model must be a golem Model (with generate)`, 'model');
  }
  if (typeof rubric !== 'string' || rubric.trim() === '') {
    throw evaluatorConfigError(`${owner}: rubric must be a non-empty string`, 'rubric');
  }
}

/** A verdict field check failed: what to tell the model so it can correct itself. */
export function verdictProblem(value: unknown, fields: readonly string[]): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `answer with a JSON object with the fields ${fields.join(', ')}`;
  }
  const missing = fields.filter((field) => !(field in value));
  if (missing.length > 0) return `the verdict lacks ${missing.join(', ')}`;
  return undefined;
}
