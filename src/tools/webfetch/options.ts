import { isRecord } from '../../core/kit/guards';
import { showValue } from '../../core/kit/error-base';
import { webFetchConfigError } from './errors';
import { canonicalHost } from './host-names';

/** One resolved address, as `dns.promises.lookup(host, { all: true })` returns them. */
export interface LookupAddress {
  readonly address: string;
  /** 4 or 6. */
  readonly family: number;
}

/** Resolves a host name to every address it has. Default: `dns.promises.lookup(host, { all: true })`. */
export type WebFetchLookup = (hostname: string) => Promise<readonly LookupAddress[]>;

/** Options of {@link webFetch}. Every field is optional; the defaults are safe. */
export interface WebFetchOptions {
  /** Total deadline of one call in ms, redirects included; default 30 000; 0 = none. */
  timeout?: number;
  /** Longest silence (no bytes) allowed on a connection in ms; default 10 000; 0 = none. */
  idleTimeout?: number;
  /** Body bytes kept (after decompression); more is cut with a marker. Default (and 0) = 1 MiB. */
  maxBytes?: number;
  /** Redirects followed, each re-validated; default 10; 0 = none followed. */
  maxRedirects?: number;
  /** The User-Agent header; default (and empty) `golem-webfetch`. */
  userAgent?: string;
  /** Extra request headers (credentials, `Accept`…). Dropped for good on a cross-origin redirect. */
  headers?: Readonly<Record<string, string>>;
  /** When set, only these hosts may be fetched (on every hop): `example.com` or `*.example.com`. */
  allowedHosts?: readonly string[];
  /** Allow loopback, private, link-local and other non-public addresses (not cloud metadata). */
  allowPrivateNetwork?: boolean;
  /** Hosts (names or IP literals, exact) exempt from every address block, e.g. `['127.0.0.1']`. */
  allowPrivateHosts?: readonly string[];
  /** Name resolution, injectable for tests; every address it returns is checked. */
  lookup?: WebFetchLookup;
  /** Keep link targets and image sources in converted HTML (`text [url]`); default false. */
  includeLinks?: boolean;
}

/** A host pattern: exactly `host`, or (wildcard) every subdomain of `host`. Internal. */
export interface HostPattern {
  readonly host: string;
  readonly wildcard: boolean;
}

/** Validated options with defaults applied. Internal. */
export interface WebFetchConfig {
  readonly timeout: number;
  readonly idleTimeout: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly userAgent: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly allowedHosts: readonly HostPattern[] | undefined;
  readonly allowPrivateNetwork: boolean;
  readonly allowPrivateHosts: ReadonlySet<string>;
  readonly lookup: WebFetchLookup | undefined;
  readonly includeLinks: boolean;
}

/** 1 MiB, the default body cap. */
export const DEFAULT_MAX_BYTES = 1_048_576;
const KNOWN = new Set([
  'timeout',
  'idleTimeout',
  'maxBytes',
  'maxRedirects',
  'userAgent',
  'headers',
  'allowedHosts',
  'allowPrivateNetwork',
  'allowPrivateHosts',
  'lookup',
  'includeLinks',
]);
/** Headers the tool owns: callers cannot set them. */
const RESERVED_HEADERS = new Set([
  'host',
  'user-agent',
  'accept-encoding',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex -- the point is to refuse control characters
const UNSAFE_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Validates `options` and applies the defaults; throws a `webfetch` `ConfigError`. */
export function resolveOptions(options: WebFetchOptions | undefined): WebFetchConfig {
  if (options === undefined) options = {};
  if (!isRecord(options)) throw webFetchConfigError('options', 'must be an object');
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) throw webFetchConfigError(key, 'is not a webFetch option');
  }
  const o = options;
  const userAgent = optionalString(o.userAgent, 'userAgent');
  if (userAgent !== undefined && UNSAFE_VALUE.test(userAgent)) {
    throw webFetchConfigError('userAgent', 'must not contain control characters');
  }
  if (o.lookup !== undefined && typeof o.lookup !== 'function') {
    throw webFetchConfigError('lookup', `must be a function, got ${showValue(o.lookup)}`);
  }
  const maxBytes = count(o.maxBytes, 'maxBytes', 0);
  return {
    timeout: duration(o.timeout, 'timeout', 30_000),
    idleTimeout: duration(o.idleTimeout, 'idleTimeout', 10_000),
    maxBytes: maxBytes === 0 ? DEFAULT_MAX_BYTES : maxBytes,
    maxRedirects: count(o.maxRedirects, 'maxRedirects', 10),
    userAgent: userAgent === undefined || userAgent === '' ? 'golem-webfetch' : userAgent,
    headers: headerRecord(o.headers),
    allowedHosts: o.allowedHosts === undefined ? undefined : hostPatterns(o.allowedHosts),
    allowPrivateNetwork: flag(o.allowPrivateNetwork, 'allowPrivateNetwork'),
    allowPrivateHosts: new Set(
      hostList(o.allowPrivateHosts ?? [], 'allowPrivateHosts', false).map((p) => p.host),
    ),
    lookup: o.lookup as WebFetchLookup | undefined,
    includeLinks: flag(o.includeLinks, 'includeLinks'),
  };
}

function duration(value: unknown, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw webFetchConfigError(
      option,
      `must be a non-negative number of milliseconds, got ${showValue(value)}`,
    );
  }
  return value;
}

function count(value: unknown, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw webFetchConfigError(option, `must be a non-negative integer, got ${showValue(value)}`);
  }
  return value;
}

function flag(value: unknown, option: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw webFetchConfigError(option, `must be true or false, got ${showValue(value)}`);
  }
  return value;
}

function optionalString(value: unknown, option: string): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  throw webFetchConfigError(option, `must be a string, got ${showValue(value)}`);
}

function headerRecord(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw webFetchConfigError('headers', 'must be an object of strings');
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!TOKEN.test(name)) {
      throw webFetchConfigError('headers', `has an invalid header name ${showValue(name)}`);
    }
    if (RESERVED_HEADERS.has(name.toLowerCase())) {
      throw webFetchConfigError(
        'headers',
        `must not set "${name}"${name.toLowerCase() === 'user-agent' ? '; use the userAgent option' : '; the tool manages it'}`,
      );
    }
    if (typeof v !== 'string' || UNSAFE_VALUE.test(v)) {
      throw webFetchConfigError('headers', `"${name}" must be a string without control characters`);
    }
    out[name.toLowerCase()] = v;
  }
  return out;
}

function hostPatterns(value: unknown): HostPattern[] {
  const patterns = hostList(value, 'allowedHosts', true);
  if (patterns.length === 0) {
    throw webFetchConfigError('allowedHosts', 'is empty; omit it to allow every public host');
  }
  return patterns;
}

function hostList(value: unknown, option: string, wildcards: boolean): HostPattern[] {
  if (!Array.isArray(value)) throw webFetchConfigError(option, 'must be an array of hosts');
  return (value as unknown[]).map((entry) => {
    if (typeof entry !== 'string' || entry === '') {
      throw webFetchConfigError(option, `has an invalid host ${showValue(entry)}`);
    }
    const wildcard = wildcards && entry.startsWith('*.');
    const host = canonicalHost(wildcard ? entry.slice(2) : entry);
    if (host === undefined || host.includes('*')) {
      throw webFetchConfigError(
        option,
        `has an invalid host ${showValue(entry)}; use a host name${wildcards ? ' or "*.domain"' : ''} or an IP address`,
      );
    }
    return { host, wildcard };
  });
}
