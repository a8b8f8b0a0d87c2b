import type { OnApplicationShutdown } from '@nestjs/common';
import { describeError } from '../src/core/index';
import { nestError, ShutdownError } from './errors';
import type { Closable } from './options';

/**
 * The resources `GolemModule` closes when the application shuts down: the `closables` of
 * `forRoot` (or of what `forRootAsync`'s factory returned) and whatever is registered at run time
 * with {@link GolemLifecycle.register} (an MCP client connected in a provider's factory). They are
 * closed once, in reverse order of registration, on `onApplicationShutdown` (`app.close()`, or a
 * signal with `app.enableShutdownHooks()`); every one is closed even when another fails, and the
 * failures are reported together as a `ShutdownError`.
 */
export class GolemLifecycle implements OnApplicationShutdown {
  private readonly closables: Closable[];
  private closing: Promise<void> | undefined;

  /** @internal Built by `GolemModule.forRoot`; inject it rather than constructing one. */
  constructor(closables: readonly Closable[] = []) {
    this.closables = [...closables];
  }

  /**
   * Closes `closable` on application shutdown; returns it, so a factory can write
   * `return lifecycle.register(await connectMcp(…))`.
   */
  register<T extends Closable>(closable: T): T {
    if (typeof (closable as Partial<Closable> | null)?.close !== 'function') {
      throw nestError('GolemLifecycle.register: the value has no close() method', {
        reason: 'invalid-options',
      });
    }
    if (this.closing !== undefined) {
      throw nestError(
        'GolemLifecycle.register: the application is shutting down; close the resource yourself',
        { reason: 'invalid-options' },
      );
    }
    this.closables.push(closable);
    return closable;
  }

  /** How many resources are waiting to be closed. */
  get size(): number {
    return this.closing === undefined ? this.closables.length : 0;
  }

  /** Nest's shutdown hook: closes everything registered (once). */
  onApplicationShutdown(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  private async closeAll(): Promise<void> {
    const failures: unknown[] = [];
    for (const closable of [...this.closables].reverse()) {
      try {
        await closable.close();
      } catch (error) {
        failures.push(error);
      }
    }
    this.closables.length = 0;
    if (failures.length === 0) return;
    const count = failures.length === 1 ? 'a closable' : `${failures.length} closables`;
    throw new ShutdownError(
      `GolemModule: closing ${count} on application shutdown failed (first: ${describeError(failures[0])}); the others were closed`,
      {
        cause:
          failures.length === 1
            ? failures[0]
            : new AggregateError(failures, `${failures.length} closables failed to close`),
      },
    );
  }
}
