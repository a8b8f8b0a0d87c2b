import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `http` on `host:port` (0: a free port); resolves with the port it listens on. */
export function listen(http: Server, port: number, host: string): Promise<number> {
  return new Promise((resolveListen, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolveListen((http.address() as AddressInfo).port);
    });
  });
}

/** Stops `http`, ending its open connections (streams included); resolves once it is closed. */
export function close(http: Server): Promise<void> {
  http.closeAllConnections();
  return new Promise((resolveClose) => {
    http.close(() => {
      resolveClose();
    });
  });
}
