import type { IncomingMessage, ServerResponse } from 'node:http';
import { All, Controller, Inject, Next, Req, Res, type Type } from '@nestjs/common';
import { CARD_PATH } from '../src/a2a/index';
import { A2AServerHost } from './a2a-host';

type Request = IncomingMessage & { originalUrl?: string; params?: Record<string, unknown> };

/**
 * The controller of one `A2AModule`, made for its route (`''` is the root): the JSON-RPC
 * endpoint, its card, the single agent's card at the origin's well-known path, and the endpoints
 * and cards of agents by key. Every route hands the raw request and response to the server (any
 * method: the server answers 405 itself).
 */
export function a2aController(route: string): Type<unknown> {
  const prefix = route === '' ? '' : `/${route}`;
  const rootCard = `/${CARD_PATH}`;
  const card = `${prefix}/${CARD_PATH}`;

  @Controller()
  class A2AController {
    constructor(@Inject(A2AServerHost) private readonly host: A2AServerHost) {}

    @All(prefix === '' ? '/' : prefix)
    rpc(@Req() req: Request, @Res() res: ServerResponse, @Next() next: () => void) {
      return this.host.serve('rpc', req, res, next);
    }

    @All(card)
    card(@Req() req: Request, @Res() res: ServerResponse, @Next() next: () => void) {
      return this.host.serve('card', req, res, next);
    }

    @All(rootCard)
    rootCard(@Req() req: Request, @Res() res: ServerResponse, @Next() next: () => void) {
      return this.host.serve('rootCard', req, res, next);
    }

    @All(`${prefix}/:key`)
    keyedRpc(@Req() req: Request, @Res() res: ServerResponse, @Next() next: () => void) {
      return this.host.serve('keyedRpc', req, res, next);
    }

    @All(`${prefix}/:key/${CARD_PATH}`)
    keyedCard(@Req() req: Request, @Res() res: ServerResponse, @Next() next: () => void) {
      return this.host.serve('keyedCard', req, res, next);
    }
  }
  return A2AController;
}
