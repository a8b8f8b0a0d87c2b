import { Buffer } from 'node:buffer';
import type { Message } from '../../core/contract/message';
import type { Part } from '../../core/contract/part';
import { partProblem } from '../../core/contract/part';
import { modelConfigError } from '../../core/errors/provider-errors';
import { UnsupportedPartError, type PartLocation } from '../../core/contract/unsupported';

/** Standard base64 of `bytes` (a view's own range, not its whole buffer). */
export function base64Of(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** A `data:<type>;base64,<bytes>` URL. */
export function dataUrlOf(mediaType: string, bytes: Uint8Array): string {
  return `data:${mediaType};base64,${base64Of(bytes)}`;
}

/** Whether a part carries inline bytes (rather than a URL). */
export function isInline(part: Part): part is Part & { data: Uint8Array } {
  return part.data !== undefined && part.data.length > 0;
}

/** The UTF-8 text of `bytes`, or `undefined` when they are not valid UTF-8. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A refusal of the part at `location` (see `UnsupportedPartError`). */
export function refusePart(
  provider: string,
  part: Part,
  location: PartLocation,
  reason: string,
): UnsupportedPartError {
  return new UnsupportedPartError(provider, part, location, reason);
}

/** Throws a model `ConfigError` naming the part when it is malformed (see `partProblem`). */
export function checkPart(provider: string, part: Part, location: PartLocation): void {
  const problem =
    typeof part === 'object' && (part as unknown) !== null
      ? partProblem(part)
      : 'part must be an object';
  if (problem !== undefined)
    throw modelConfigError(
      provider,
      `message ${location.message} part ${location.part}: ${problem}`,
    );
}

/**
 * Enforces a provider's cap on the size of a request's inline media: the base64 text of every
 * inline part (images, documents, audio), summed in order. The part that crosses `limit` is
 * refused with `UnsupportedPartError` (`what` names the limit, e.g. "Gemini takes at most 20 MB
 * of inline data per request"), before anything is sent.
 */
export function checkInlineTotal(
  provider: string,
  messages: readonly Message[],
  limit: number,
  what: string,
): void {
  let total = 0;
  messages.forEach((message, i) => {
    (message.parts ?? []).forEach((part, j) => {
      if (!isInline(part)) return;
      total += Math.ceil(part.data.length / 3) * 4;
      if (total > limit)
        throw refusePart(
          provider,
          part,
          { message: i, part: j },
          `${what}; the inline parts reach ${total} base64 bytes with this one: send large files by URL or through the provider's file store`,
        );
    });
  });
}
