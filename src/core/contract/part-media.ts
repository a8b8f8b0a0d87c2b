/**
 * The media types Golem accepts on document and audio parts, and the size cap on inline bytes.
 * Providers accept subsets of these (see docs/guides/multimodal-input.md); a part outside a
 * provider's subset fails before anything is sent with `UnsupportedPartError`.
 */

/** Document media types: PDF, plain text, Markdown, CSV, HTML and the Office formats. */
export const DOCUMENT_MEDIA_TYPES: readonly string[] = Object.freeze([
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/csv',
  'text/html',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
]);

/**
 * Audio media types. `audio/mpeg` and `audio/mp3` are the same MP3 format (the second is Gemini's
 * spelling); `audio/x-wav` and `audio/wave` are aliases of `audio/wav`.
 */
export const AUDIO_MEDIA_TYPES: readonly string[] = Object.freeze([
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/mpeg',
  'audio/mp3',
  'audio/aac',
  'audio/ogg',
  'audio/flac',
  'audio/aiff',
  'audio/webm',
  'audio/mp4',
]);

/**
 * Largest inline payload of one part, in bytes: 50 MiB, the most any shipped adapter sends
 * inline. Adapters apply their provider's smaller documented limits on top (Bedrock 4.5 MB per
 * document, Anthropic 32 MB and Gemini 20 MB per request); bigger files go by URL (a provider's
 * file store, `gs://`, `s3://`).
 */
export const MAX_PART_BYTES = 50 * 1024 * 1024;

/**
 * The essence of a media type: lower case, parameters (`; charset=utf-8`) and surrounding space
 * removed; aliases of WAV and MP3 folded to `audio/wav` and `audio/mpeg`.
 */
export function mediaEssence(mediaType: string): string {
  const essence = (mediaType.split(';')[0] ?? '').trim().toLowerCase();
  if (essence === 'audio/x-wav' || essence === 'audio/wave') return 'audio/wav';
  if (essence === 'audio/mp3') return 'audio/mpeg';
  return essence;
}

/** Whether a document media type is text (sent as text where a provider has a text source). */
export function isTextDocument(mediaType: string): boolean {
  return mediaEssence(mediaType).startsWith('text/');
}

/** Whether `url` is an absolute URL with a scheme (`https:`, `gs:`, `s3:`, `data:`…). */
export function isAbsoluteUrl(url: string): boolean {
  try {
    return new URL(url).protocol.length > 1;
  } catch {
    return false;
  }
}
