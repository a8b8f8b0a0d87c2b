import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { showValue } from '../../core/kit/error-base';
import { judgeAddress, type AddressVerdict } from './blocked-ranges';
import { BlockedDestinationError, WebFetchError, causeText } from './errors';
import { hostKey, judgeHostName, matchesHost } from './host-names';
import type { LookupAddress, WebFetchConfig } from './options';
import type { FetchScope } from './scope';

/** A validated destination: where to connect, pinned to one checked address. Internal. */
export interface Destination {
  readonly url: URL;
  /** The host as sent in `Host` and TLS SNI (IPv6 without brackets). */
  readonly hostname: string;
  /** The validated address the connection is pinned to. */
  readonly address: string;
  readonly family: 4 | 6;
}

/** The checks that need no lookup: scheme, `allowedHosts`, blocked names and IP literals. */
export interface StaticCheck {
  readonly url: URL;
  readonly hostname: string;
  readonly key: string;
  /** Set when the host is an IP literal (no lookup happens). */
  readonly literal: { address: string; family: 4 | 6 } | undefined;
}

type Policy = Pick<WebFetchConfig, 'allowedHosts' | 'allowPrivateNetwork' | 'allowPrivateHosts'>;

/** Whether the policy refuses a non-public verdict for the host `key`. */
function refuses(verdict: AddressVerdict | undefined, key: string, policy: Policy): boolean {
  if (verdict === undefined || policy.allowPrivateHosts.has(key)) return false;
  return verdict.metadata || !policy.allowPrivateNetwork;
}

/** Runs the lookup-free checks; throws `BlockedDestinationError`. */
export function checkStatic(url: URL, policy: Policy): StaticCheck {
  const hostname =
    url.hostname.startsWith('[') && url.hostname.endsWith(']')
      ? url.hostname.slice(1, -1)
      : url.hostname;
  const block = (reason: string): BlockedDestinationError =>
    new BlockedDestinationError({ url: url.href, host: url.hostname, reason });
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw block(`scheme "${url.protocol}" is not fetched (only http and https)`);
  }
  const key = hostKey(url.hostname);
  if (key === '') throw block('the URL has no host');
  if (policy.allowedHosts !== undefined && !policy.allowedHosts.some((p) => matchesHost(key, p))) {
    throw block('not in allowedHosts');
  }
  const family = isIP(hostname);
  if (family === 4 || family === 6) {
    const verdict = judgeAddress(hostname);
    if (refuses(verdict, key, policy)) throw block(verdict?.reason ?? '');
    return { url, hostname, key, literal: { address: hostname, family } };
  }
  const named = judgeHostName(key);
  if (refuses(named, key, policy)) throw block(named?.reason ?? '');
  return { url, hostname, key, literal: undefined };
}

const defaultLookup = (hostname: string): Promise<LookupAddress[]> =>
  dnsLookup(hostname, { all: true });

/**
 * Resolves the host (unless it is an IP literal) and checks every address it has: one blocked
 * address refuses the destination, so a host cannot mix a public and a private record. The
 * connection is pinned to the first address.
 */
export async function resolveDestination(
  check: StaticCheck,
  policy: Policy & Pick<WebFetchConfig, 'lookup'>,
  scope: FetchScope,
): Promise<Destination> {
  const { url, hostname, key } = check;
  if (check.literal !== undefined) return { url, hostname, ...check.literal };
  let answers: readonly LookupAddress[];
  try {
    answers = await scope.race((policy.lookup ?? defaultLookup)(hostname));
  } catch (cause) {
    scope.check();
    throw new WebFetchError(url.href, `cannot resolve ${hostname}: ${causeText(cause)}`, {
      cause,
    });
  }
  if (!Array.isArray(answers) || answers.length === 0) {
    throw new WebFetchError(url.href, `${hostname} resolved to no address`);
  }
  let pinned: { address: string; family: 4 | 6 } | undefined;
  for (const answer of answers as unknown[]) {
    const address =
      typeof answer === 'object' && answer !== null
        ? (answer as { address?: unknown }).address
        : undefined;
    const family = typeof address === 'string' ? isIP(address) : 0;
    const verdict =
      family === 0
        ? { reason: 'the lookup returned something that is not an IP address', metadata: true }
        : judgeAddress(address as string);
    if (family === 0 || refuses(verdict, key, policy)) {
      throw new BlockedDestinationError({
        url: url.href,
        host: url.hostname,
        reason: verdict?.reason ?? '',
        address: typeof address === 'string' ? address : showValue(address),
      });
    }
    pinned ??= { address: address as string, family: family as 4 | 6 };
  }
  if (pinned === undefined) throw new WebFetchError(url.href, `${hostname} resolved to no address`);
  return { url, hostname, ...pinned };
}
