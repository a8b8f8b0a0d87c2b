import type { OutputDecoder } from './decoder';
import { contextFree } from './decoder';

/** The default decoder: the final response's text (empty when the model said nothing). */
export function decodeText(): OutputDecoder<string> {
  return contextFree((response) => response.message.content ?? '');
}
