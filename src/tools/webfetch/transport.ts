import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { DeadlineExceededError } from '../../core/errors/cancellation';
import type { Destination } from './destination';
import { WebFetchError, causeText } from './errors';
import type { FetchScope } from './scope';

/**
 * A `lookup` for the socket that always answers the validated address, so name resolution at
 * connect time cannot return anything else (no DNS rebinding between check and connect).
 */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * Sends one GET to `dest` on a fresh connection (no pooling, so no socket chosen by an earlier
 * resolution is reused) pinned to the validated address. `Host` and TLS SNI keep the host name.
 * Resolves with the response head; the caller owns the body and must read or destroy it. The
 * request is destroyed when the scope stops or the connection is idle for `idleTimeout` ms.
 */
export function sendRequest(
  dest: Destination,
  headers: OutgoingHttpHeaders,
  idleTimeout: number,
  scope: FetchScope,
): Promise<IncomingMessage> {
  scope.check();
  const { url } = dest;
  const secure = url.protocol === 'https:';
  const options: https.RequestOptions = {
    method: 'GET',
    hostname: dest.hostname,
    port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers,
    agent: false,
    lookup: pinnedLookup(dest.address, dest.family),
    // Armed on the socket before it connects, so connecting counts as idle time too.
    ...(idleTimeout > 0 && { timeout: idleTimeout }),
    ...(secure && dest.hostname !== dest.address && { servername: dest.hostname }),
  };
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = secure ? https.request(options) : http.request(options);
    const stop = (): void => {
      request.destroy(scope.error());
    };
    scope.signal.addEventListener('abort', stop, { once: true });
    request.once('close', () => {
      scope.signal.removeEventListener('abort', stop);
    });
    request.once('timeout', () => {
      scope.abort(
        new DeadlineExceededError(
          `webfetch: ${url.href} sent nothing for ${idleTimeout} ms (idle timeout)`,
        ),
      );
    });
    request.once('response', resolve);
    request.on('error', (cause) => {
      if (scope.signal.aborted) reject(scope.error());
      else reject(new WebFetchError(url.href, `request failed: ${causeText(cause)}`, { cause }));
    });
    request.end();
  });
}
