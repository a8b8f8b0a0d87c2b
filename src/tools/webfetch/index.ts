/**
 * `golem/tools/webfetch`: the `web_fetch` common tool — fetch a URL as agent-readable text, with
 * SSRF protection on by default.
 * @packageDocumentation
 */
export { webFetch, truncationMarker, WEB_FETCH_TOOL_NAME } from './web-fetch';
export type { WebFetchOptions, WebFetchLookup, LookupAddress } from './options';
export { DEFAULT_MAX_BYTES } from './options';
export { blockedAddressReason } from './blocked-ranges';
export {
  WebFetchConfigError,
  StatusError,
  UnsupportedContentTypeError,
  UnsupportedContentEncodingError,
  BlockedDestinationError,
  TooManyRedirectsError,
  WebFetchError,
} from './errors';
