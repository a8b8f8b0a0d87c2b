import { isIPv6 } from 'node:net';
import type { AddressVerdict } from './blocked-ranges';

/**
 * The comparison key of a URL host name: brackets of an IPv6 literal removed, lower-cased,
 * trailing dots removed (`LOCALHOST.` and `localhost` are the same host).
 */
export function hostKey(hostname: string): string {
  const bare =
    hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return bare.toLowerCase().replace(/\.+$/, '');
}

/**
 * The key of a host written by the application (a name, an IPv4 address in any form the WHATWG
 * URL parser accepts, or an IPv6 address with or without brackets), canonicalised the way URLs
 * are; `undefined` when it is not a bare host.
 */
export function canonicalHost(text: string): string | undefined {
  const candidate = isIPv6(text) ? `[${text}]` : text;
  if (/[/?#@\\\s]/.test(candidate) || candidate.replace(/^\[.*\]$/, '').includes(':')) {
    return undefined;
  }
  try {
    const key = hostKey(new URL(`http://${candidate}/`).hostname);
    return key === '' ? undefined : key;
  } catch {
    return undefined;
  }
}

const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** Host names refused by name, before any lookup: loopback names and cloud metadata names. */
export function judgeHostName(key: string): AddressVerdict | undefined {
  if (key === 'localhost' || key.endsWith('.localhost')) {
    return { reason: 'loopback host name', metadata: false };
  }
  if (METADATA_NAMES.has(key)) return { reason: 'cloud metadata host name', metadata: true };
  return undefined;
}

/** Whether `key` matches an `allowedHosts` entry: exact, or a subdomain for `*.` entries. */
export function matchesHost(key: string, pattern: { host: string; wildcard: boolean }): boolean {
  return pattern.wildcard ? key.endsWith(`.${pattern.host}`) : key === pattern.host;
}
