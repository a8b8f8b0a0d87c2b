import type { OutputDecoder } from './decoder';

/** The default decoder: the final response's text (empty when the model said nothing). */
export function decodeText(): OutputDecoder<string> {
  return (response) => response.message.content ?? '';
}
