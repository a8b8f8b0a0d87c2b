import { StoreError } from '../../core/durable/store-error';
import { isModuleNotFound } from '../../core/kit/missing-peer';

/**
 * Runs `loader` (a lazy `require` of the SQL store's driver); a missing module is a
 * `driver-missing` StoreError naming `store` and the package to install. Any other load failure
 * propagates unchanged.
 */
export function loadDriver<T>(loader: () => T, store: string, packageName: string): T {
  try {
    return loader();
  } catch (error) {
    if (isModuleNotFound(error))
      throw new StoreError(
        `${store}: the package ${packageName} is not installed; it is an optional peer dependency of golem: run \`npm install ${packageName}\``,
        { reason: 'driver-missing', cause: error },
      );
    throw error;
  }
}
