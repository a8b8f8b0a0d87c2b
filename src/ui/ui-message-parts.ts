import { deniedText } from '../core/engine/texts';
import { isArrayValue, isRecord } from '../core/kit/guards';
import type { Part } from '../core/contract/part';
import { DISCARDED_PART } from './chunk-types';
import { UIMessageError } from './ui-message-error';

/** A UI message part, checked to be an object with a string `type`. Internal. */
export type UIPart = Record<string, unknown> & { type: string };

/** A UI message after the structural checks. Internal. */
export interface CheckedUIMessage {
  id: string;
  role: 'system' | 'user' | 'assistant';
  parts: UIPart[];
  metadata: unknown;
  path: string;
}

const ROLES = ['system', 'user', 'assistant'];

/** Checks one message's shape: `id`, `role`, `parts` (objects with a string `type`). Internal. */
export function checkMessage(value: unknown, path: string): CheckedUIMessage {
  if (!isRecord(value)) throw new UIMessageError(path, 'a UI message must be an object');
  const { id, role, parts, metadata } = value;
  if (typeof id !== 'string' || id === '')
    throw new UIMessageError(`${path}.id`, 'a UI message needs a non-empty string id');
  if (typeof role !== 'string' || !ROLES.includes(role))
    throw new UIMessageError(
      `${path}.role`,
      `role must be "user" or "assistant", got ${show(role)}`,
    );
  if (!isArrayValue(parts))
    throw new UIMessageError(`${path}.parts`, 'a UI message needs an array of parts');
  const checked = parts.map((part, i): UIPart => {
    if (!isRecord(part) || typeof part.type !== 'string')
      throw new UIMessageError(
        `${path}.parts[${i}]`,
        'a part must be an object with a string type',
      );
    return part as UIPart;
  });
  return { id, role: role as CheckedUIMessage['role'], parts: checked, metadata, path };
}

/** Whether a part is a tool invocation (`tool-<name>` or `dynamic-tool`). Internal. */
export function isToolPart(part: UIPart): boolean {
  return part.type.startsWith('tool-') || part.type === 'dynamic-tool';
}

/** Parts Golem does not replay to the model and accepts silently. */
function isIgnored(part: UIPart): boolean {
  return (
    part.type === 'reasoning' ||
    part.type === 'source-url' ||
    part.type === 'source-document' ||
    (part.type.startsWith('data-') && part.type !== DISCARDED_PART)
  );
}

/** A user message's text and files. Internal. */
export function userContent(message: CheckedUIMessage): { text: string; parts: Part[] } {
  const texts: string[] = [];
  const files: Part[] = [];
  message.parts.forEach((part, i) => {
    const path = `${message.path}.parts[${i}]`;
    if (part.type === 'text') texts.push(textOf(part, path));
    else if (part.type === 'file') files.push(fileOf(part, path));
    else if (!isIgnored(part) && part.type !== 'step-start')
      throw new UIMessageError(path, `part type "${part.type}" is not accepted in a user message`);
  });
  return { text: texts.join('\n'), parts: files };
}

/** A part's `text`, checked. Internal. */
export function textOf(part: UIPart, path: string): string {
  if (typeof part.text !== 'string')
    throw new UIMessageError(`${path}.text`, 'text must be a string');
  return part.text;
}

function fileOf(part: UIPart, path: string): Part {
  const { url, mediaType, filename } = part;
  if (typeof mediaType !== 'string' || mediaType === '')
    throw new UIMessageError(`${path}.mediaType`, 'a file part needs a media type');
  if (typeof url !== 'string') throw new UIMessageError(`${path}.url`, 'a file part needs a url');
  const kind = mediaType.startsWith('image/')
    ? 'image'
    : mediaType.startsWith('audio/')
      ? 'audio'
      : 'document';
  const made: Part = { kind, mediaType };
  if (url.startsWith('data:')) made.data = dataUrlBytes(url, mediaType, `${path}.url`);
  else if (/^https?:\/\//i.test(url)) made.url = url;
  else throw new UIMessageError(`${path}.url`, 'a file url must be a data: or http(s) URL');
  if (typeof filename === 'string' && filename !== '' && kind === 'document') made.name = filename;
  return made;
}

/** A media type without its parameters, lower-cased: `Image/PNG; x=1` → `image/png`. */
function essence(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * A data: URL's bytes. The URL's own media type, when it names one, must be the part's declared
 * `mediaType` (parameters and case aside): bytes are never sent on under a type they disown.
 */
function dataUrlBytes(url: string, mediaType: string, path: string): Uint8Array {
  const comma = url.indexOf(',');
  if (comma < 0) throw new UIMessageError(path, 'a data: URL needs a comma before its data');
  const header = url.slice(5, comma);
  const own = essence(header);
  if (own !== '' && own !== essence(mediaType))
    throw new UIMessageError(
      path,
      `the data: URL's media type ${show(own)} is not the part's mediaType ${show(mediaType)}`,
    );
  const payload = url.slice(comma + 1);
  if (header.endsWith(';base64')) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload))
      throw new UIMessageError(path, 'the data: URL is not valid base64');
    return new Uint8Array(Buffer.from(payload, 'base64'));
  }
  try {
    return new TextEncoder().encode(decodeURIComponent(payload));
  } catch {
    throw new UIMessageError(path, 'the data: URL is not valid percent-encoding');
  }
}

/** Splits an assistant message's parts into steps at each `step-start`. Internal. */
export function stepsOf(message: CheckedUIMessage): { part: UIPart; path: string }[][] {
  const steps: { part: UIPart; path: string }[][] = [[]];
  message.parts.forEach((part, i) => {
    const path = `${message.path}.parts[${i}]`;
    if (part.type === 'step-start') steps.push([]);
    else if (
      isToolPart(part) ||
      part.type === 'text' ||
      part.type === DISCARDED_PART ||
      isIgnored(part)
    )
      steps[steps.length - 1]?.push({ part, path });
    else throw new UIMessageError(path, `unknown part type "${part.type}" in an assistant message`);
  });
  return steps.filter((step) => !step.some(({ part }) => part.type === DISCARDED_PART));
}

/** A tool part's call: id, tool name and raw JSON arguments. Internal. */
export function toolCallOf(part: UIPart, path: string): { id: string; name: string; args: string } {
  const id = part.toolCallId;
  if (typeof id !== 'string' || id === '')
    throw new UIMessageError(`${path}.toolCallId`, 'a tool part needs a string toolCallId');
  const name = part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length);
  if (typeof name !== 'string' || name === '')
    throw new UIMessageError(path, 'a tool part needs a tool name');
  let args: string;
  if (part.input !== undefined) args = jsonText(part.input, `${path}.input`);
  else args = typeof part.rawInput === 'string' ? part.rawInput : '{}';
  return { id, name, args };
}

/** A tool output as the text the model sees: strings as-is, anything else as JSON. Internal. */
export function outputText(output: unknown, path: string): string {
  if (typeof output === 'string') return output;
  return output === undefined ? '' : jsonText(output, path);
}

function jsonText(value: unknown, path: string): string {
  try {
    return JSON.stringify(value);
  } catch {
    throw new UIMessageError(path, 'the value is not JSON');
  }
}

/** The approval of a tool part in `approval-responded`. Internal. */
export function approvalOf(part: UIPart, path: string): { approved: boolean; reason?: string } {
  const approval = part.approval;
  if (!isRecord(approval) || typeof approval.approved !== 'boolean')
    throw new UIMessageError(
      `${path}.approval`,
      'a responded approval needs approval.approved (boolean)',
    );
  const { reason } = approval;
  if (reason !== undefined && typeof reason !== 'string')
    throw new UIMessageError(`${path}.approval.reason`, 'an approval reason must be a string');
  return reason === undefined
    ? { approved: approval.approved }
    : { approved: approval.approved, reason };
}

/** The text a denied call's result holds (as the engine writes it). Internal. */
export function deniedResult(part: UIPart): string {
  const approval = part.approval;
  const reason =
    isRecord(approval) && typeof approval.reason === 'string' ? approval.reason : undefined;
  return deniedText(reason);
}

/** A short, safe rendering of an unexpected value for an error message. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  return value === null ? 'null' : typeof value;
}
