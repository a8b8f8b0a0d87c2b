import { showValue } from '../core/kit/error-base';
import { isRecord } from '../core/kit/guards';
import {
  MCP_LOG_LEVELS,
  type McpElicitationOptions,
  type McpLogLevel,
  type McpRoot,
  type McpSamplingOptions,
} from './capability-types';
import { fail, optionalFunction, resolveCount, resolveTimeout } from './option-checks';

/** Validated sampling options. Internal. */
export interface ResolvedSampling extends McpSamplingOptions {
  maxTokens: number;
  maxRequests: number;
  timeout: number;
  systemPrompt: 'server' | 'ignore';
}

/** Validated elicitation options. Internal. */
export interface ResolvedElicitation extends McpElicitationOptions {
  url: boolean;
  pauseRun: boolean;
  invalidAnswer: 'error' | 'decline';
  timeout: number;
}

/** The client capabilities a connection declares, and their handlers' options. Internal. */
export interface ResolvedCapabilities {
  sampling: ResolvedSampling | undefined;
  elicitation: ResolvedElicitation | undefined;
  roots: readonly McpRoot[] | undefined;
  logLevel: McpLogLevel | undefined;
}

/** Default cap on the tokens a sampling request may ask for. */
export const DEFAULT_SAMPLING_MAX_TOKENS = 4096;
/** Default number of sampling requests served per connection. */
export const DEFAULT_SAMPLING_MAX_REQUESTS = 100;

/**
 * Validates the capability options of `connectMcp`; throws an `mcp` `ConfigError` naming the
 * option.
 */
export function resolveCapabilities(raw: {
  sampling?: unknown;
  elicitation?: unknown;
  roots?: unknown;
  logLevel?: unknown;
}): ResolvedCapabilities {
  return {
    sampling: raw.sampling === undefined ? undefined : resolveSampling(raw.sampling),
    elicitation: raw.elicitation === undefined ? undefined : resolveElicitation(raw.elicitation),
    roots: raw.roots === undefined ? undefined : resolveRoots('roots', raw.roots),
    logLevel: resolveLogLevel(raw.logLevel),
  };
}

function resolveSampling(value: unknown): ResolvedSampling {
  if (!isRecord(value)) fail('sampling', 'must be an object { model, approve?, … }');
  const model = value.model;
  if (!isRecord(model) || typeof model.generate !== 'function') {
    fail('sampling.model', 'must be a golem Model (an object with generate())');
  }
  optionalFunction('sampling.approve', value.approve);
  const systemPrompt = value.systemPrompt ?? 'server';
  if (systemPrompt !== 'server' && systemPrompt !== 'ignore') {
    fail('sampling.systemPrompt', `must be "server" or "ignore", got ${showValue(systemPrompt)}`);
  }
  if (value.modelSettings !== undefined && !isRecord(value.modelSettings)) {
    fail('sampling.modelSettings', 'must be an object of model settings');
  }
  return {
    ...(value as unknown as McpSamplingOptions),
    maxTokens: resolveCount('sampling.maxTokens', value.maxTokens, DEFAULT_SAMPLING_MAX_TOKENS),
    maxRequests: resolveCount(
      'sampling.maxRequests',
      value.maxRequests,
      DEFAULT_SAMPLING_MAX_REQUESTS,
    ),
    timeout: resolveTimeout('sampling.timeout', value.timeout, 120_000),
    systemPrompt,
  };
}

function resolveElicitation(value: unknown): ResolvedElicitation {
  if (
    !isRecord(value) ||
    (typeof value.handler !== 'function' &&
      (value.pauseRun !== true || value.handler !== undefined))
  ) {
    fail('elicitation', 'must be an object { handler: (request, { signal }) => answer }');
  }
  if (value.pauseRun !== undefined && typeof value.pauseRun !== 'boolean') {
    fail('elicitation.pauseRun', `must be a boolean, got ${showValue(value.pauseRun)}`);
  }
  if (value.url !== undefined && typeof value.url !== 'boolean') {
    fail('elicitation.url', `must be a boolean, got ${showValue(value.url)}`);
  }
  const invalidAnswer = value.invalidAnswer ?? 'error';
  if (invalidAnswer !== 'error' && invalidAnswer !== 'decline') {
    fail(
      'elicitation.invalidAnswer',
      `must be "error" or "decline", got ${showValue(invalidAnswer)}`,
    );
  }
  return {
    ...(value as unknown as McpElicitationOptions),
    url: value.url === true,
    pauseRun: value.pauseRun === true,
    invalidAnswer,
    timeout: resolveTimeout('elicitation.timeout', value.timeout, 600_000),
  };
}

/** Validates a roots list: `file:` URIs (the protocol's rule) with optional string names. */
export function resolveRoots(option: string, value: unknown): McpRoot[] {
  if (!Array.isArray(value)) fail(option, 'must be an array of { uri: "file:///…", name? }');
  return (value as unknown[]).map((root, i) => {
    if (!isRecord(root) || typeof root.uri !== 'string') {
      fail(`${option}[${i}]`, `must be { uri, name? }, got ${showValue(root)}`);
    }
    let url: URL;
    try {
      url = new URL(root.uri);
    } catch {
      return fail(`${option}[${i}].uri`, `is not a URI: ${JSON.stringify(root.uri)}`);
    }
    if (url.protocol !== 'file:') {
      fail(`${option}[${i}].uri`, `must be a file: URI, got ${JSON.stringify(root.uri)}`);
    }
    if (root.name !== undefined && typeof root.name !== 'string') {
      fail(`${option}[${i}].name`, `must be a string, got ${showValue(root.name)}`);
    }
    return Object.freeze({
      uri: root.uri,
      ...(typeof root.name === 'string' && { name: root.name }),
    });
  });
}

function resolveLogLevel(value: unknown): McpLogLevel | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !MCP_LOG_LEVELS.includes(value as McpLogLevel)) {
    fail('logLevel', `must be one of ${MCP_LOG_LEVELS.join(', ')}; got ${showValue(value)}`);
  }
  return value as McpLogLevel;
}
