import type { Message } from '../../core/contract/message';
import type { Part } from '../../core/contract/part';
import { mediaEssence } from '../../core/contract/part-media';
import type { PartLocation } from '../../core/contract/unsupported';
import { base64Of, checkInlineTotal, checkPart, isInline, refusePart } from '../shared/parts';
import type { GeminiPart } from './wire';

/** Gemini's limit on a request's inline data (20 MB), applied to the base64 of the inline parts. */
export const MAX_INLINE_BYTES = 20 * 1024 * 1024;

/** Audio formats Gemini understands, by media-type essence → the `mimeType` sent. */
const AUDIO: Readonly<Record<string, string>> = {
  'audio/wav': 'audio/wav',
  'audio/mpeg': 'audio/mp3',
  'audio/aiff': 'audio/aiff',
  'audio/aac': 'audio/aac',
  'audio/ogg': 'audio/ogg',
  'audio/flac': 'audio/flac',
};

/** Refuses the part that takes the request's inline data past {@link MAX_INLINE_BYTES}. */
export function checkInlineSize(provider: string, messages: readonly Message[]): void {
  checkInlineTotal(
    provider,
    messages,
    MAX_INLINE_BYTES,
    'Gemini takes at most 20 MB of inline data per request (larger files go through the Files API or gs://, as URLs)',
  );
}

/**
 * A part as a Gemini part: inline bytes as `inlineData {mimeType, data}`, a URL (an uploaded
 * file, `gs://`, an `https:` URL Google can fetch) as `fileData {mimeType?, fileUri}`. Images
 * pass as they are; documents must be PDF or text (Office formats are refused); audio must be
 * WAV, MP3 (sent as `audio/mp3`), AIFF, AAC, OGG or FLAC. A malformed part is a
 * a model `ConfigError`, one Gemini cannot take an `UnsupportedPartError`.
 */
export function mediaPart(provider: string, part: Part, at: PartLocation): GeminiPart {
  checkPart(provider, part, at);
  const mimeType = mimeTypeOf(provider, part, at);
  if (isInline(part))
    return { inlineData: { mimeType: mimeType ?? '', data: base64Of(part.data) } };
  const fileUri = part.url ?? '';
  return mimeType === undefined ? { fileData: { fileUri } } : { fileData: { mimeType, fileUri } };
}

function mimeTypeOf(provider: string, part: Part, at: PartLocation): string | undefined {
  if (part.mediaType === undefined || part.mediaType === '') return undefined;
  if (part.kind === 'image') return part.mediaType;
  const essence = mediaEssence(part.mediaType);
  if (part.kind === 'audio') {
    const sent = AUDIO[essence];
    if (sent === undefined)
      throw refusePart(
        provider,
        part,
        at,
        'Gemini understands audio as WAV, MP3, AIFF, AAC, OGG or FLAC',
      );
    return sent;
  }
  if (essence !== 'application/pdf' && !essence.startsWith('text/'))
    throw refusePart(
      provider,
      part,
      at,
      'Gemini reads PDF and text documents; convert Office files to PDF first',
    );
  return essence;
}
