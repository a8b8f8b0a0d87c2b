import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { CARD_PATH, createA2AServer, type A2AServer } from '../src/a2a/index';
import { nestError } from './errors';
import { resolveAgents } from './a2a-agents';
import type { CheckedA2AOptions } from './a2a-options';

/** The token of the checked options of one `A2AModule`. */
export const A2A_OPTIONS = Symbol('A2AModuleOptions');

/** Which route of the module a request came in on. */
export type A2ARoute = 'rpc' | 'card' | 'rootCard' | 'keyedRpc' | 'keyedCard';

const KEY = /^[A-Za-z0-9._-]+$/;

/** A request as the controller hands it over (Express's request, typed as node's). */
type RoutedRequest = IncomingMessage & { originalUrl?: string; params?: Record<string, unknown> };

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * Holds the `A2AServer` of an `A2AModule`: builds it when the module initialises (the agent
 * classes are resolved from Nest then), serves the requests its controller receives, and cancels
 * every running task when the module is destroyed.
 */
@Injectable()
export class A2AServerHost implements OnModuleInit, OnModuleDestroy {
  private server: A2AServer | undefined;
  private base = '/';

  /** What `A2A_SERVER` injects: the server, readable once the module has initialised. */
  readonly facade: A2AServer;

  constructor(
    @Inject(A2A_OPTIONS) private readonly options: CheckedA2AOptions,
    private readonly ref: ModuleRef,
  ) {
    const current = (): A2AServer => this.current();
    this.facade = Object.freeze({
      get card() {
        return current().card;
      },
      get cards() {
        return current().cards;
      },
      handle: (req: IncomingMessage, res: ServerResponse, next?: () => void) =>
        current().handle(req, res, next),
      close: () => this.server?.close(),
    });
  }

  /** Builds the server with the agents Nest has built. */
  async onModuleInit(): Promise<void> {
    const { agents, path: _path, route: _route, ...rest } = this.options;
    const server = createA2AServer({ ...rest, agents: await resolveAgents(this.ref, agents) });
    this.base = trimSlash(new URL(rest.url).pathname);
    this.server = server;
  }

  /** Cancels every running task (their runs are aborted). */
  onModuleDestroy(): void {
    this.server?.close();
  }

  private current(): A2AServer {
    if (this.server === undefined)
      throw nestError(
        'A2AModule: the A2A server is built when the application initialises (app.init() or app.listen()); read it after that',
        { reason: 'invalid-options' },
      );
    return this.server;
  }

  /** The path the server serves for a route (the path of `url`, which may differ from the route). */
  private target(route: A2ARoute, key: unknown): string | undefined {
    const prefix = this.base === '/' ? '' : this.base;
    switch (route) {
      case 'rpc':
        return this.base;
      case 'card':
        return `${prefix}/${CARD_PATH}`;
      case 'rootCard':
        return `/${CARD_PATH}`;
      default:
        if (typeof key !== 'string' || !KEY.test(key)) return undefined;
        return route === 'keyedRpc' ? `${prefix}/${key}` : `${prefix}/${key}/${CARD_PATH}`;
    }
  }

  /**
   * Serves one request of the controller: the server answers it on the raw response (Nest sends
   * nothing), or passes it on with `next` when it serves no such path (an unknown agent key).
   * Nothing is thrown to Nest, so no exception filter rewrites the answer.
   */
  async serve(
    route: A2ARoute,
    req: RoutedRequest,
    res: ServerResponse,
    next: () => void,
  ): Promise<void> {
    const target = this.target(route, req.params?.key);
    if (target === undefined) {
      next();
      return;
    }
    let served: Promise<void>;
    const original = req.originalUrl;
    // The server reads the path first, synchronously: it sees the path of `url` for this route.
    req.originalUrl = target;
    try {
      served = this.current().handle(req, res, next);
    } catch (error) {
      served = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      req.originalUrl = original;
    }
    try {
      await served;
    } catch {
      // The server answers its own failures; an unexpected one still ends the response here.
      if (!res.headersSent)
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
      else if (!res.writableEnded) res.end();
    }
  }
}
