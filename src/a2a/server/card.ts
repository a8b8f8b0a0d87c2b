import type {
  AgentCapabilities,
  AgentCard,
  AgentProvider,
  AgentSkill,
  SecurityRequirement,
  SecurityScheme,
} from '../card-types';
import { JSONRPC_BINDING, PROTOCOL_VERSION } from '../wire-types';
import { configFail } from './config-fail';
import type { ServableAgent, ServableDescription } from './servable-agent';

/** Options of {@link agentCard}: the endpoint URL, and anything that overrides the generated card. */
export interface AgentCardOptions {
  /** The absolute URL of the JSON-RPC endpoint (the card's `supportedInterfaces[0].url`). */
  url: string;
  /** Default: the agent's `name`. */
  name?: string;
  /** Default: the agent's `description`, else `A golem agent (<name>)`. */
  description?: string;
  /** The agent's version; default `1.0.0`. */
  version?: string;
  /**
   * Default: one skill per tool the agent's model is offered (its name and description), or, for
   * an agent without tools, one skill named after the agent. Never the agent's instructions.
   */
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
  /** Default `['application/json']` for structured output, else `['text/plain']`. */
  defaultOutputModes?: readonly string[];
  /** Merged over the generated capabilities (`streaming: true`). */
  capabilities?: AgentCapabilities;
}

const MODES = ['text/plain', 'application/json'];
const MAX_TEXT = 1000;

/** A description made safe for a public card: one bounded paragraph. */
function cardText(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT - 1)}…` : clean;
}

/** The skills of an agent: its tools, or the agent itself when it has none. */
function generatedSkills(
  agent: ServableAgent,
  name: string,
  description: string,
  about: ServableDescription | undefined,
): AgentSkill[] {
  const tools = about?.tools ?? [];
  if (tools.length === 0) return [{ id: agent.name, name, description, tags: [agent.name] }];
  return tools.map((tool) => ({
    id: tool.name,
    name: tool.name,
    description: cardText(tool.description) || tool.name,
    tags: [agent.name],
  }));
}

/**
 * The A2A 1.0 agent card of `agent`, served at `/.well-known/agent-card.json`: one JSON-RPC 1.0
 * interface at `options.url`, streaming on; name, description, skills (its tools) and output
 * modes (JSON for structured output) from the agent unless overridden. The agent's instructions
 * are never published.
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
  const about = typeof agent.describe === 'function' ? agent.describe() : undefined;
  const described = about?.description === undefined ? '' : cardText(about.description);
  const description =
    options.description ?? (described === '' ? `A golem agent (${name})` : described);
  const outputModes = about?.output === undefined ? ['text/plain'] : ['application/json'];
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
    defaultOutputModes: options.defaultOutputModes ?? outputModes,
    skills: options.skills ?? generatedSkills(agent, name, description, about),
    ...(options.provider !== undefined && { provider: options.provider }),
    ...(options.documentationUrl !== undefined && { documentationUrl: options.documentationUrl }),
    ...(options.iconUrl !== undefined && { iconUrl: options.iconUrl }),
    ...(schemes !== undefined && { securitySchemes: schemes }),
    ...(requirements !== undefined && { securityRequirements: requirements }),
  };
  return card;
}
