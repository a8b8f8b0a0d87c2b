import { Inject, type Type } from '@nestjs/common';
import type { A2AServer } from '../src/a2a/index';
import { makeToken } from './tokens';

/** Shared by every copy of the package loaded in one process, like the other tokens. */
const TOKEN_KEY = Symbol.for('golem.nestjs.a2aServerToken');

/**
 * The Nest injection token of the `A2AServer` that `A2AModule.forRoot` serves (global):
 * `moduleRef.get(A2A_SERVER).card` is the served card. Its `card` and `cards` are readable once
 * the application has initialised (the agents are built by then).
 */
export const A2A_SERVER: Type<A2AServer> = ((
  globalThis as Record<symbol, Type<A2AServer> | undefined>
)[TOKEN_KEY] ??= makeToken<A2AServer>('A2AServer'));

/**
 * Injects the `A2AServer` of `A2AModule.forRoot`:
 * `constructor(@InjectA2AServer() private readonly a2a: A2AServer)`.
 */
export function InjectA2AServer(): PropertyDecorator & ParameterDecorator {
  return Inject(A2A_SERVER);
}
