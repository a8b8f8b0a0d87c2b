import { ConfigError } from '../../core/index';

/** Throws an `a2a` `ConfigError` naming the option at fault and the fix. */
export function configFail(option: string, message: string): never {
  throw new ConfigError(`A2A server: ${option} ${message}`, {
    // 'a2a' joins ConfigComponent when the entry point is wired.
    component: 'a2a',
    option,
  });
}
