/** The parser of an A2A agent card (a remote agent's self-description, untrusted). */
import type {
  AgentCapabilities,
  AgentCard,
  AgentInterface,
  AgentSkill,
  SecurityRequirement,
  SecurityScheme,
} from './card-types';
import { fail, record, str, optStr, optBool, optMeta, list, strings, compact } from './wire-read';

function parseInterface(value: unknown, path: string): AgentInterface {
  const o = record(value, path);
  return compact({
    url: str(o.url, `${path}.url`),
    protocolBinding: str(o.protocolBinding, `${path}.protocolBinding`),
    tenant: optStr(o.tenant, `${path}.tenant`),
    protocolVersion: str(o.protocolVersion, `${path}.protocolVersion`),
  });
}

function parseSkill(value: unknown, path: string): AgentSkill {
  const o = record(value, path);
  return compact({
    id: str(o.id, `${path}.id`),
    name: str(o.name, `${path}.name`),
    description: str(o.description ?? '', `${path}.description`),
    tags: strings(o.tags, `${path}.tags`),
    examples: o.examples === undefined ? undefined : strings(o.examples, `${path}.examples`),
    inputModes:
      o.inputModes === undefined ? undefined : strings(o.inputModes, `${path}.inputModes`),
    outputModes:
      o.outputModes === undefined ? undefined : strings(o.outputModes, `${path}.outputModes`),
    securityRequirements:
      o.securityRequirements === undefined
        ? undefined
        : list(o.securityRequirements, `${path}.securityRequirements`, parseRequirement),
  });
}

function parseRequirement(value: unknown, path: string): SecurityRequirement {
  const o = record(value, path);
  if (o.schemes === undefined) return {};
  const schemes: Record<string, { list: string[] }> = {};
  for (const [name, scopes] of Object.entries(record(o.schemes, `${path}.schemes`))) {
    const s = record(scopes, `${path}.schemes.${name}`);
    schemes[name] = { list: strings(s.list, `${path}.schemes.${name}.list`) };
  }
  return { schemes };
}

function parseScheme(value: unknown, path: string): SecurityScheme {
  const o = record(value, path);
  if (o.apiKeySecurityScheme !== undefined) {
    const s = record(o.apiKeySecurityScheme, `${path}.apiKeySecurityScheme`);
    return {
      apiKeySecurityScheme: compact({
        description: optStr(s.description, `${path}.description`),
        location: str(s.location, `${path}.apiKeySecurityScheme.location`),
        name: str(s.name, `${path}.apiKeySecurityScheme.name`),
      }),
    };
  }
  if (o.httpAuthSecurityScheme !== undefined) {
    const s = record(o.httpAuthSecurityScheme, `${path}.httpAuthSecurityScheme`);
    return {
      httpAuthSecurityScheme: compact({
        description: optStr(s.description, `${path}.description`),
        scheme: str(s.scheme, `${path}.httpAuthSecurityScheme.scheme`),
        bearerFormat: optStr(s.bearerFormat, `${path}.httpAuthSecurityScheme.bearerFormat`),
      }),
    };
  }
  for (const key of ['oauth2SecurityScheme', 'openIdConnectSecurityScheme', 'mtlsSecurityScheme']) {
    if (o[key] !== undefined) return { [key]: record(o[key], `${path}.${key}`) } as SecurityScheme;
  }
  return fail(path, 'a security scheme with one known kind');
}

function parseCapabilities(value: unknown, path: string): AgentCapabilities {
  const o = record(value, path);
  return compact({
    streaming: optBool(o.streaming, `${path}.streaming`),
    pushNotifications: optBool(o.pushNotifications, `${path}.pushNotifications`),
    extensions:
      o.extensions === undefined
        ? undefined
        : list(o.extensions, `${path}.extensions`, (v, p) => {
            const e = record(v, p);
            return compact({
              uri: str(e.uri, `${p}.uri`),
              description: optStr(e.description, `${p}.description`),
              required: optBool(e.required, `${p}.required`),
              params: optMeta(e.params, `${p}.params`),
            });
          }),
    extendedAgentCard: optBool(o.extendedAgentCard, `${path}.extendedAgentCard`),
  });
}

/** Parses an agent card; a bad one throws {@link A2AProtocolError}. */
export function parseCard(value: unknown, path = 'card'): AgentCard {
  const o = record(value, path);
  let schemes: Record<string, SecurityScheme> | undefined;
  if (o.securitySchemes !== undefined) {
    schemes = {};
    for (const [name, s] of Object.entries(record(o.securitySchemes, `${path}.securitySchemes`))) {
      schemes[name] = parseScheme(s, `${path}.securitySchemes.${name}`);
    }
  }
  const provider = o.provider === undefined ? undefined : record(o.provider, `${path}.provider`);
  return compact({
    name: str(o.name, `${path}.name`),
    description: str(o.description ?? '', `${path}.description`),
    supportedInterfaces: list(o.supportedInterfaces, `${path}.supportedInterfaces`, parseInterface),
    provider:
      provider === undefined
        ? undefined
        : {
            url: str(provider.url, `${path}.provider.url`),
            organization: str(provider.organization, `${path}.provider.organization`),
          },
    version: str(o.version ?? '', `${path}.version`),
    documentationUrl: optStr(o.documentationUrl, `${path}.documentationUrl`),
    capabilities:
      o.capabilities === undefined
        ? undefined
        : parseCapabilities(o.capabilities, `${path}.capabilities`),
    securitySchemes: schemes,
    securityRequirements:
      o.securityRequirements === undefined
        ? undefined
        : list(o.securityRequirements, `${path}.securityRequirements`, parseRequirement),
    defaultInputModes: strings(o.defaultInputModes, `${path}.defaultInputModes`),
    defaultOutputModes: strings(o.defaultOutputModes, `${path}.defaultOutputModes`),
    skills: list(o.skills, `${path}.skills`, parseSkill),
    signatures:
      o.signatures === undefined
        ? undefined
        : list(o.signatures, `${path}.signatures`, (v, p) => record(v, p)),
    iconUrl: optStr(o.iconUrl, `${path}.iconUrl`),
  });
}
