import type {
  AgentCapabilities,
  AgentCard,
  AgentProvider,
  AgentSkill,
  SecurityRequirement,
  SecurityScheme,
} from '../wire-types';
import { JSONRPC_BINDING, PROTOCOL_VERSION } from '../wire-types';
import { configFail } from './config-fail';
import type { ServableAgent } from './servable-agent';

/** Options of {@link agentCard}: the endpoint URL, and anything that overrides the generated card. */
export interface AgentCardOptions {
  /** The absolute URL of the JSON-RPC endpoint (the card's `supportedInterfaces[0].url`). */
  url: string;
  /** Default: the agent's `name`. */
  name?: string;
  /** Default: `A golem agent (<name>)`. */
  description?: string;
  /** The agent's version; default `1.0.0`. */
  version?: string;
  /** Default: one skill named after the agent. */
  skills?: readonly AgentSkill[];
  /** The provider. */
  provider?: AgentProvider;
  /** Documentation URL. */
  documentationUrl?: string;
  /** Icon URL. */
  iconUrl?: string;
  /** Security schemes the server's `authenticate` enforces (e.g. a `Bearer` http scheme). */
  securitySchemes?: Readonly<Record<string, SecurityScheme>>;
  /** Which schemes a client must use; default every scheme of `securitySchemes`. */
  securityRequirements?: readonly SecurityRequirement[];
  /** Default `['text/plain', 'application/json']`. */
  defaultInputModes?: readonly string[];
  /** Default `['text/plain', 'application/json']`. */
  defaultOutputModes?: readonly string[];
  /** Merged over the generated capabilities (`streaming: true`). */
  capabilities?: AgentCapabilities;
}

const MODES = ['text/plain', 'application/json'];

/**
 * The A2A 1.0 agent card of `agent`, served at `/.well-known/agent-card.json`: one JSON-RPC 1.0
 * interface at `options.url`, streaming on, name and skills from the agent unless overridden.
 */
export function agentCard(agent: ServableAgent, options: AgentCardOptions): AgentCard {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return configFail(
      'url',
      `must be an absolute URL like "https://agents.example.com/a2a", got ${JSON.stringify(options.url)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    configFail('url', `must be an http(s) URL, got ${JSON.stringify(options.url)}`);
  }
  const name = options.name ?? agent.name;
  const description = options.description ?? `A golem agent (${name})`;
  const schemes = options.securitySchemes;
  const requirements =
    options.securityRequirements ??
    (schemes === undefined
      ? undefined
      : Object.keys(schemes).map((key) => ({ schemes: { [key]: { list: [] } } })));
  const card: AgentCard = {
    name,
    description,
    supportedInterfaces: [
      { url: url.href, protocolBinding: JSONRPC_BINDING, protocolVersion: PROTOCOL_VERSION },
    ],
    version: options.version ?? '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, ...options.capabilities },
    defaultInputModes: options.defaultInputModes ?? MODES,
    defaultOutputModes: options.defaultOutputModes ?? MODES,
    skills: options.skills ?? [{ id: agent.name, name, description, tags: [agent.name] }],
    ...(options.provider !== undefined && { provider: options.provider }),
    ...(options.documentationUrl !== undefined && { documentationUrl: options.documentationUrl }),
    ...(options.iconUrl !== undefined && { iconUrl: options.iconUrl }),
    ...(schemes !== undefined && { securitySchemes: schemes }),
    ...(requirements !== undefined && { securityRequirements: requirements }),
  };
  return card;
}
