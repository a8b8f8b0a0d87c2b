/**
 * `golem/tools/webfetch`: the `web_fetch` common tool — fetch a URL as agent-readable text, with
 * SSRF protection on by default. Needs the peer dependency `html-to-text`; loading it without
 * html-to-text throws a `missing-peer` `ConfigError`.
 * @packageDocumentation
 */
import './peers';
export { webFetch } from './web-fetch';
export type { WebFetchOptions, WebFetchLookup, LookupAddress } from './options';
export { blockedAddressReason } from './blocked-ranges';
