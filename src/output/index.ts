export type { OutputDecoder, DecodeContext } from './decoder';
export { decodeText } from './decode-text';
export type { OutputValidator } from './decode-json';
export { decodeJSON } from './decode-json';
