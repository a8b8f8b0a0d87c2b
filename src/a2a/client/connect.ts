import { throwIfCancelled } from '../../core/index';
import { parseUntrustedJson } from '../../core/kit/safe-json';
import { A2AProtocolError } from '../a2a-error';
import { parseCard } from '../card-check';
import { CARD_PATH, JSONRPC_BINDING, PROTOCOL_VERSION, VERSION_HEADER } from '../wire-types';
import { type AgentCard, type AgentInterface } from '../card-types';
import { readBoundedText } from './bounded-body';
import { Connection } from './connection';
import type { A2AConnection } from './connection-types';
import { malformed, statusFailure, transportFailure, wireFailure } from './failures';
import { resolveOptions, type ConnectA2AOptions, type ResolvedOptions } from './options';
import { RpcChannel } from './rpc';

const WHAT = 'the agent card';

/**
 * Connects to a remote A2A agent: reads its card at `<url>/.well-known/agent-card.json` (or at
 * `url` itself when it names the card), picks the card's JSONRPC interface of protocol 1.0, and
 * returns the connection. A card that cannot be read, is malformed or offers no JSONRPC 1.0
 * interface is an error naming what it offers; a wrong URL or option is a `ConfigError`.
 */
export async function connectA2A(url: string, options?: ConnectA2AOptions): Promise<A2AConnection> {
  const resolved = resolveOptions(url, options);
  const cardUrl = cardUrlOf(url);
  const card = await readCard(cardUrl, resolved);
  const endpoint = jsonRpcEndpoint(card, cardUrl, resolved.secrets);
  return new Connection(card, endpoint, new RpcChannel(endpoint, resolved), resolved);
}

function cardUrlOf(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname.endsWith(`/${CARD_PATH}`)) return parsed.href;
  if (!parsed.pathname.endsWith('/')) parsed.pathname = `${parsed.pathname}/`;
  return new URL(CARD_PATH, parsed).href;
}

async function readCard(cardUrl: string, options: ResolvedOptions): Promise<AgentCard> {
  const { signal, secrets } = options;
  throwIfCancelled(signal);
  let response: Response;
  try {
    response = await options.fetch(cardUrl, {
      method: 'GET',
      headers: {
        ...options.headers,
        accept: 'application/json',
        [VERSION_HEADER]: PROTOCOL_VERSION,
      },
      redirect: 'error',
      ...(signal !== undefined && { signal }),
    });
  } catch (cause) {
    throwIfCancelled(signal);
    throw transportFailure(`${WHAT} at ${cardUrl}`, cause, secrets);
  }
  const max = options.maxResponseBytes;
  let text: string;
  try {
    text = await readBoundedText(response, max, () =>
      wireFailure(WHAT, `the card is larger than maxResponseBytes (${max} bytes)`, []),
    );
  } catch (error) {
    throwIfCancelled(signal);
    if (error instanceof A2AProtocolError) throw error;
    throw transportFailure(`${WHAT} at ${cardUrl}`, error, secrets);
  }
  if (!response.ok) throw statusFailure(`${WHAT} at ${cardUrl}`, response.status, text, secrets);
  let json: unknown;
  try {
    json = parseUntrustedJson(text, { maxLength: max });
  } catch (error) {
    throw wireFailure(
      `${WHAT} at ${cardUrl}`,
      `not valid JSON (${(error as Error).message})`,
      secrets,
    );
  }
  try {
    return parseCard(json);
  } catch (error) {
    throw malformed(`${WHAT} at ${cardUrl}`, error, secrets);
  }
}

/** The URL of the card's JSONRPC 1.0 interface, resolved against the card's URL. */
function jsonRpcEndpoint(card: AgentCard, cardUrl: string, secrets: readonly string[]): string {
  const found: AgentInterface | undefined = card.supportedInterfaces.find(
    (i) =>
      i.protocolBinding.toUpperCase() === JSONRPC_BINDING && i.protocolVersion === PROTOCOL_VERSION,
  );
  if (found === undefined) {
    const offered = card.supportedInterfaces.map(
      (i) => `${i.protocolBinding} ${i.protocolVersion}`,
    );
    throw wireFailure(
      WHAT,
      `agent ${JSON.stringify(card.name)} offers no ${JSONRPC_BINDING} ${PROTOCOL_VERSION} interface (it offers ${offered.length === 0 ? 'none' : offered.join(', ')}); this client speaks only A2A ${PROTOCOL_VERSION} over JSON-RPC`,
      secrets,
    );
  }
  let endpoint: URL;
  try {
    endpoint = new URL(found.url, cardUrl);
  } catch {
    throw wireFailure(
      WHAT,
      `the JSONRPC interface URL ${JSON.stringify(found.url)} is not a URL`,
      secrets,
    );
  }
  if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') {
    throw wireFailure(
      WHAT,
      `the JSONRPC interface URL must be http(s), got ${endpoint.protocol}`,
      secrets,
    );
  }
  return endpoint.href;
}
