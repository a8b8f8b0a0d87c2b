import { ConfigError } from './config-error';

/**
 * Loads one peer package: a `require` of its literal name (`() => require('yaml')`), so
 * bundlers see the dependency and bundle it, and a missing install throws `MODULE_NOT_FOUND`.
 */
export type PeerLoader = () => unknown;

/**
 * An entry point of golem was loaded without one or more of its peer dependencies installed
 * (`golem/decorators` without class-validator, `golem/tools/webfetch` without html-to-text…): a
 * {@link ConfigError} of component `peers`, reason `missing-peer`. The message names the entry
 * point, the missing packages and the `npm install` command that fixes it (`entryPoint`,
 * `packages`, `command`).
 */
export function missingPeerError(entryPoint: string, packages: readonly string[]): ConfigError {
  const command = `npm install ${packages.join(' ')}`;
  const one = packages.length === 1;
  return new ConfigError(
    `${entryPoint} needs ${one ? 'the package' : 'the packages'} ${packages.join(', ')}, ` +
      `${one ? 'a peer dependency' : 'peer dependencies'} of golem that ${one ? 'is' : 'are'} ` +
      `not installed: run \`${command}\``,
    {
      component: 'peers',
      reason: 'missing-peer',
      entryPoint,
      packages: Object.freeze([...packages]),
      command,
    },
  );
}

/** Whether `error` is a failed module load (`MODULE_NOT_FOUND`, `ERR_MODULE_NOT_FOUND`). */
export function isModuleNotFound(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
}

/** Whether `error` says that `packageName` itself (not something it needs) is not installed. */
function isMissing(error: unknown, packageName: string): boolean {
  if (!isModuleNotFound(error)) return false;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && message.includes(`'${packageName}'`);
}

/**
 * Loads every peer of an entry point (`{ yaml: () => require('yaml') }`) and throws one
 * `missingPeerError` naming all the missing ones when any is not installed. An entry point
 * runs it first, before anything it imports loads a peer, so a missing install fails with the
 * fix instead of a bare `Cannot find module`. The peers are loaded in the order given (the entry
 * point loads them right after anyway); any other load failure — a peer's own broken
 * dependency, say — propagates unchanged.
 */
export function checkPeers(entryPoint: string, peers: Readonly<Record<string, PeerLoader>>): void {
  const missing: string[] = [];
  for (const [packageName, load] of Object.entries(peers)) {
    try {
      load();
    } catch (error) {
      if (!isMissing(error, packageName)) throw error;
      missing.push(packageName);
    }
  }
  if (missing.length > 0) throw missingPeerError(entryPoint, missing);
}
