/**
 * The A2A 1.0 agent card (the self-description served at the well-known path) and its parts:
 * interfaces, provider, capabilities, security schemes and skills, as JSON.
 */
import type { WireMetadata } from './wire-types';

/** One interface of an agent: URL, binding and protocol version. */
export interface AgentInterface {
  /** Absolute URL of the endpoint. */
  readonly url: string;
  /** `JSONRPC`, `GRPC` or `HTTP+JSON`. */
  readonly protocolBinding: string;
  /** Optional tenant. */
  readonly tenant?: string;
  /** e.g. `1.0`. */
  readonly protocolVersion: string;
}

/** The agent's provider. */
export interface AgentProvider {
  /** Website. */
  readonly url: string;
  /** Organisation name. */
  readonly organization: string;
}

/** A protocol extension the agent supports. */
export interface AgentExtension {
  /** Extension URI. */
  readonly uri: string;
  /** How the agent uses it. */
  readonly description?: string;
  /** Clients must understand it. */
  readonly required?: boolean;
  /** Extension parameters. */
  readonly params?: WireMetadata;
}

/** Optional capabilities of an agent. */
export interface AgentCapabilities {
  /** Supports `SendStreamingMessage` / `SubscribeToTask`. */
  readonly streaming?: boolean;
  /** Supports push notifications. */
  readonly pushNotifications?: boolean;
  /** Supported extensions. */
  readonly extensions?: readonly AgentExtension[];
  /** Serves an extended card to authenticated clients. */
  readonly extendedAgentCard?: boolean;
}

/** A list of strings (scopes) in a security requirement. */
export interface StringList {
  /** The strings. */
  readonly list?: readonly string[];
}

/** Security schemes required together, with their scopes. */
export interface SecurityRequirement {
  /** Scheme name → required scopes. */
  readonly schemes?: Readonly<Record<string, StringList>>;
}

/** An API key in a header, query parameter or cookie. */
export interface ApiKeySecurityScheme {
  /** Description. */
  readonly description?: string;
  /** `header`, `query` or `cookie`. */
  readonly location: string;
  /** The header / parameter / cookie name. */
  readonly name: string;
}

/** HTTP authentication (e.g. `Bearer`). */
export interface HttpAuthSecurityScheme {
  /** Description. */
  readonly description?: string;
  /** The Authorization scheme, e.g. `Bearer`. */
  readonly scheme: string;
  /** Token format hint, e.g. `JWT`. */
  readonly bearerFormat?: string;
}

/** A security scheme: exactly one key is present (others kept opaque). */
export type SecurityScheme =
  | { readonly apiKeySecurityScheme: ApiKeySecurityScheme }
  | { readonly httpAuthSecurityScheme: HttpAuthSecurityScheme }
  | { readonly oauth2SecurityScheme: WireMetadata }
  | { readonly openIdConnectSecurityScheme: WireMetadata }
  | { readonly mtlsSecurityScheme: WireMetadata };

/** A skill the agent advertises. */
export interface AgentSkill {
  /** Unique id. */
  readonly id: string;
  /** Name. */
  readonly name: string;
  /** Description. */
  readonly description: string;
  /** Keywords. */
  readonly tags: readonly string[];
  /** Example prompts. */
  readonly examples?: readonly string[];
  /** Input media types (overrides the card's). */
  readonly inputModes?: readonly string[];
  /** Output media types (overrides the card's). */
  readonly outputModes?: readonly string[];
  /** Security needed for this skill. */
  readonly securityRequirements?: readonly SecurityRequirement[];
}

/** The self-description an agent serves at {@link CARD_PATH}. */
export interface AgentCard {
  /** Name. */
  readonly name: string;
  /** Description. */
  readonly description: string;
  /** Endpoints, preferred first. */
  readonly supportedInterfaces: readonly AgentInterface[];
  /** Provider. */
  readonly provider?: AgentProvider;
  /** The agent's version. */
  readonly version: string;
  /** Documentation URL. */
  readonly documentationUrl?: string;
  /** Capabilities. */
  readonly capabilities?: AgentCapabilities;
  /** Named security schemes. */
  readonly securitySchemes?: Readonly<Record<string, SecurityScheme>>;
  /** Which schemes a client must use. */
  readonly securityRequirements?: readonly SecurityRequirement[];
  /** Accepted input media types. */
  readonly defaultInputModes: readonly string[];
  /** Produced output media types. */
  readonly defaultOutputModes: readonly string[];
  /** Skills. */
  readonly skills: readonly AgentSkill[];
  /** JWS signatures (not verified by this module). */
  readonly signatures?: readonly WireMetadata[];
  /** Icon URL. */
  readonly iconUrl?: string;
}
