import { nestError } from './errors';

/** The packages `golem/nestjs` needs beside golem: its optional peer dependencies. */
export const NEST_PEERS: readonly string[] = Object.freeze([
  '@nestjs/common',
  '@nestjs/core',
  'rxjs',
]);

/** Loads one module by name (a `require`); inject one to test a missing install. */
export type PeerLoader = (id: string) => unknown;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peers: checked before the rest of golem/nestjs loads them
const requirePeer: PeerLoader = (id) => require(id) as unknown;

function isMissing(error: unknown, id: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(`'${id}'`)
  );
}

/**
 * Loads the peers of `golem/nestjs` and throws a `missing-peer` `golem/nestjs` `ConfigError` naming
 * the
 * `npm install` command when one is not installed (any other load failure propagates as is).
 * `golem/nestjs` runs it first, before anything else imports a peer.
 */
export function checkNestPeers(load: PeerLoader = requirePeer): void {
  const missing: string[] = [];
  for (const id of NEST_PEERS) {
    try {
      load(id);
    } catch (error) {
      if (!isMissing(error, id)) throw error;
      missing.push(id);
    }
  }
  if (missing.length === 0) return;
  const list = missing.join(' ');
  const command = `npm install ${list}`;
  throw nestError(
    `golem/nestjs needs ${missing.length === 1 ? 'the package' : 'the packages'} ${list}, ${missing.length === 1 ? 'an optional peer dependency' : 'optional peer dependencies'} of golem that ${missing.length === 1 ? 'is' : 'are'} not installed: run \`${command}\` (Nest 10, 11 or 12)`,
    { reason: 'missing-peer', entryPoint: 'golem/nestjs', packages: missing, command },
  );
}

/** The installed `@nestjs/core` version (`12.5.1`), or `undefined` when it cannot be read. */
export function nestCoreVersion(load: PeerLoader = requirePeer): string | undefined {
  try {
    const version = (load('@nestjs/core/package.json') as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `version` (`major.minor.patch`) is at least `major.minor`. */
export function atLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return a > major || (a === major && b >= minor);
}

checkNestPeers();
