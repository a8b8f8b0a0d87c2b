import { ConfigError } from '../core/kit/config-error';
import { isRecord } from '../core/kit/guards';
import type { Message, Role } from '../core/contract/message';
import type { Part } from '../core/contract/part';
import type { ModelRequest } from '../core/contract/request';
import type { Middleware, ModelCall } from '../core/engine/middleware';
import { detectPii, resolveOverlaps, type PiiDetector, type PiiSpan } from './pii-detectors';

/** Where a finding was: a message's `content`, a text document part, or a tool call's arguments. */
export type PiiField = 'content' | 'part' | 'toolArgs';

/** One piece of PII replaced before a request left the process (never the PII itself). */
export interface PiiFinding {
  /** What it was (`email`, `credit_card`, or a plugged detector's kind). */
  readonly kind: string;
  /** The role of the message it was in. */
  readonly role: Role;
  /** The index of that message in the request. */
  readonly message: number;
  /** Where in the message. */
  readonly field: PiiField;
}

/** Options of {@link redactPii}. */
export interface RedactPiiOptions {
  /** Finds the PII; default the built-in `detectPii` (see `piiDetector`). May be async. */
  detector?: PiiDetector;
  /**
   * What replaces each piece: a text, or a function of the kind and the text replaced; default
   * `[REDACTED:<kind>]`.
   */
  replacement?: string | ((found: { kind: string; text: string }) => string);
  /** The roles whose messages are redacted; default all four. */
  roles?: readonly Role[];
  /** Redact inside tool calls' arguments too (assistant messages); default false. */
  toolArgs?: boolean;
  /** Called once per request that had PII, with what was replaced (kinds and places only). */
  onFound?: (findings: readonly PiiFinding[], call: ModelCall) => void;
}

const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];

/**
 * Middleware replacing PII in the text of every request before it leaves the process: each
 * message's `content`, text document parts (`text/*` inline data, e.g. `textDocument()`), and
 * with `toolArgs: true` the string values of tool calls' arguments (the JSON stays valid). The
 * default detector finds e-mails, phone numbers, Luhn-checked card numbers, mod-97-checked
 * IBANs, US SSNs and IPv4 addresses; plug your own (`detector`, sync or async: Presidio, an NER
 * model). A detector that throws, or returns an invalid span, fails the call: nothing is sent.
 *
 * Only what the provider sees changes: the run's messages (`result.messages`, stored runs,
 * history, events and `model_start`) keep the original text, so tools and the app still see it.
 * Reasoning blocks, images and other binary parts pass unchanged. Put it before middleware that
 * must not see PII (a response cache keyed on the request, `logRequests` placed after it).
 *
 * ```ts
 * new Agent({ model, middleware: [redactPii({ roles: ['user', 'tool'] })] });
 * ```
 */
export function redactPii(options: RedactPiiOptions = {}): Middleware {
  const checked = checkOptions(options);
  const detector = checked.detector ?? detectPii;
  const roles = new Set(checked.roles ?? ROLES);
  const replacement = checked.replacement;
  const replace = (kind: string, text: string): string =>
    replacement === undefined
      ? `[REDACTED:${kind}]`
      : typeof replacement === 'string'
        ? replacement
        : replacement({ kind, text });
  const redactText = async (text: string, onSpan: (kind: string) => void): Promise<string> => {
    if (text === '') return text;
    const spans = checkSpans(await detector(text), text.length);
    if (spans.length === 0) return text;
    let out = '';
    let at = 0;
    for (const span of spans) {
      out += text.slice(at, span.start) + replace(span.kind, text.slice(span.start, span.end));
      at = span.end;
      onSpan(span.kind);
    }
    return out + text.slice(at);
  };
  return {
    name: 'redactPii',
    async request(request: ModelRequest, call: ModelCall): Promise<ModelRequest> {
      const findings: PiiFinding[] = [];
      const messages = await Promise.all(
        request.messages.map(async (message, index) => {
          if (!roles.has(message.role)) return message;
          const found = (field: PiiField) => (kind: string) =>
            findings.push({ kind, role: message.role, message: index, field });
          return redactMessage(message, checked.toolArgs === true, (text, field) =>
            redactText(text, found(field)),
          );
        }),
      );
      if (findings.length === 0) return request;
      checked.onFound?.(findings, call);
      return { ...request, messages };
    },
  };
}

type Redact = (text: string, field: PiiField) => Promise<string>;

/** `message` with its text redacted: the same object when nothing changed. */
async function redactMessage(
  message: Message,
  toolArgs: boolean,
  redact: Redact,
): Promise<Message> {
  let changed = false;
  const copy: Message = { ...message };
  if (typeof message.content === 'string') {
    const content = await redact(message.content, 'content');
    if (content !== message.content) {
      copy.content = content;
      changed = true;
    }
  }
  if (message.parts !== undefined) {
    const parts = await Promise.all(message.parts.map((part) => redactPart(part, redact)));
    if (parts.some((p, i) => p !== message.parts?.[i])) {
      copy.parts = parts;
      changed = true;
    }
  }
  if (toolArgs && message.toolCalls !== undefined) {
    const calls = await Promise.all(
      message.toolCalls.map(async (c) => {
        const args = await redactArgs(c.args, redact);
        return args === c.args ? c : { ...c, args };
      }),
    );
    if (calls.some((c, i) => c !== message.toolCalls?.[i])) {
      copy.toolCalls = calls;
      changed = true;
    }
  }
  return changed ? copy : message;
}

/** A `text/*` part with inline bytes, redacted as UTF-8 text; other parts as they are. */
async function redactPart(part: Part, redact: Redact): Promise<Part> {
  if (part.data === undefined || !(part.mediaType ?? '').toLowerCase().startsWith('text/'))
    return part;
  const text = new TextDecoder().decode(part.data);
  const redacted = await redact(text, 'part');
  return redacted === text ? part : { ...part, data: new TextEncoder().encode(redacted) };
}

/** The string values of a JSON arguments text redacted (raw text when it is not JSON). */
async function redactArgs(args: string, redact: Redact): Promise<string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return redact(args, 'toolArgs');
  }
  const state = { changed: false };
  const walk = async (value: unknown): Promise<unknown> => {
    if (typeof value === 'string') {
      const out = await redact(value, 'toolArgs');
      if (out !== value) state.changed = true;
      return out;
    }
    if (Array.isArray(value)) return Promise.all(value.map(walk));
    if (isRecord(value)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = await walk(item);
      return out;
    }
    return value;
  };
  const redacted = await walk(parsed);
  return state.changed ? JSON.stringify(redacted) : args;
}

/** The detector's spans, checked and made non-overlapping. */
function checkSpans(spans: unknown, length: number): PiiSpan[] {
  if (!Array.isArray(spans))
    throw new ConfigError('redactPii: the detector must return an array of { start, end, kind }', {
      component: 'middleware',
      option: 'detector',
    });
  for (const span of spans as unknown[]) {
    const ok =
      isRecord(span) &&
      Number.isInteger(span.start) &&
      Number.isInteger(span.end) &&
      (span.start as number) >= 0 &&
      (span.end as number) > (span.start as number) &&
      (span.end as number) <= length &&
      typeof span.kind === 'string' &&
      span.kind !== '';
    if (!ok)
      throw new ConfigError(
        'redactPii: the detector returned an invalid span: each needs integer start < end within the text and a non-empty kind',
        { component: 'middleware', option: 'detector' },
      );
  }
  return resolveOverlaps(spans as PiiSpan[]);
}

function checkOptions(options: unknown): RedactPiiOptions {
  const fail = (option: string, message: string): ConfigError =>
    new ConfigError(`redactPii: ${option} ${message}`, { component: 'middleware', option });
  if (!isRecord(options)) throw fail('options', 'must be an object');
  const { detector, replacement, roles, toolArgs, onFound } = options;
  if (detector !== undefined && typeof detector !== 'function')
    throw fail('detector', 'must be a function (text) => [{ start, end, kind }]');
  if (
    replacement !== undefined &&
    typeof replacement !== 'string' &&
    typeof replacement !== 'function'
  )
    throw fail('replacement', 'must be a string or a function ({ kind, text }) => string');
  if (
    roles !== undefined &&
    !(Array.isArray(roles) && roles.every((r) => (ROLES as readonly unknown[]).includes(r)))
  )
    throw fail('roles', `must list some of ${ROLES.join(', ')}`);
  if (toolArgs !== undefined && typeof toolArgs !== 'boolean')
    throw fail('toolArgs', 'must be true or false');
  if (onFound !== undefined && typeof onFound !== 'function')
    throw fail('onFound', 'must be a function (findings, call) => void');
  return options;
}
