/**
 * InvokeModel for the embedding and rerank models: the SDK's `InvokeModelCommand` on the same
 * client, response guard and error classification as Converse, so these calls keep the chat
 * calls' network guarantees (no redirects followed, bounded bodies, typed errors, the adapter
 * timeout, the caller's abort as cancellation).
 */
import type { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { throwIfCancelled } from '../../core/errors/cancellation';
import { modelConfigError, ModelProtocolError } from '../../core/errors/provider-errors';
import { CallScope } from '../shared/call-scope';
import { tokenCount } from '../shared/embedding-vectors';
import { awsSdk, resolveClient } from './client';
import { classifyError } from './errors';
import { limitsOf, validateOptions, type BedrockOptions, type CallLimits } from './options';
import { ResponseGuard } from './response-guard';
import { PROVIDER, loadBedrockSdk } from './sdk';

/** The Bedrock options an InvokeModel-based model shares with `bedrock()`. */
export type BedrockInvokeOptions = Pick<
  BedrockOptions,
  | 'region'
  | 'client'
  | 'credentials'
  | 'endpoint'
  | 'timeout'
  | 'maxResponseBytes'
  | 'errorBodyTimeout'
  | 'loadSdk'
> & { model: string };

/** What one InvokeModel call returned. */
export interface InvokeResult {
  json: unknown;
  /** `X-Amzn-Bedrock-Input-Token-Count`, when the response carried it; else `0`. */
  inputTokens: number;
}

/** A client able to run InvokeModel for one model id. */
export class BedrockInvoker {
  readonly modelId: string;
  private readonly client: BedrockRuntimeClient;
  private readonly Command: typeof InvokeModelCommand;
  private readonly owned: boolean;
  private readonly secrets: readonly string[];
  private readonly limits: CallLimits;

  /** Validates the options (a model `ConfigError` naming the field) and builds or adopts the client. */
  constructor(options: BedrockInvokeOptions) {
    const full = options as BedrockOptions;
    validateOptions(full);
    this.modelId = options.model;
    const loaded = loadBedrockSdk(options.loadSdk) as unknown as Record<string, unknown>;
    if (typeof loaded.InvokeModelCommand !== 'function')
      throw modelConfigError(
        PROVIDER,
        'the loaded @aws-sdk/client-bedrock-runtime has no InvokeModelCommand; install a current version',
      );
    this.Command = loaded.InvokeModelCommand as typeof InvokeModelCommand;
    const resolved = resolveClient(full, awsSdk(loaded as never));
    this.client = resolved.client;
    this.owned = resolved.owned;
    this.secrets = resolved.secrets;
    this.limits = limitsOf(full);
  }

  /** One InvokeModel call with a JSON body; the answer parsed as JSON. */
  async invoke(body: unknown, signal: AbortSignal | undefined): Promise<InvokeResult> {
    throwIfCancelled(signal);
    const command = new this.Command({
      modelId: this.modelId,
      body: new TextEncoder().encode(JSON.stringify(body)),
      contentType: 'application/json',
      accept: 'application/json',
    });
    const guard = new ResponseGuard({ ...this.limits, streaming: false, secrets: this.secrets });
    command.middlewareStack.add(guard.middleware as never, {
      step: 'deserialize',
      priority: 'low',
      name: 'golemBedrockResponseGuard',
    });
    let headers: Record<string, unknown> = {};
    const usage =
      (next: (args: unknown) => Promise<{ response: unknown }>) => async (args: unknown) => {
        const result = await next(args);
        const raw = (result.response as { headers?: Record<string, unknown> }).headers;
        headers = raw ?? {};
        return result;
      };
    command.middlewareStack.add(usage as never, {
      step: 'deserialize',
      priority: 'low',
      name: 'golemBedrockUsageHeaders',
    });
    const scope = new CallScope({ provider: PROVIDER, timeout: this.limits.timeout, signal });
    const output = await scope.run(async (callSignal) => {
      try {
        return await this.client.send(command, { abortSignal: callSignal });
      } catch (error) {
        if (guard.failure !== undefined) throw guard.failure;
        if (callSignal.aborted) throw error; // the scope classifies its own aborts
        throw classifyError(error, { phase: 'request', signal, secrets: this.secrets });
      }
    });
    const text = new TextDecoder('utf-8').decode(output.body);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new ModelProtocolError(PROVIDER, 'the InvokeModel response body is not JSON', {
        cause,
      });
    }
    return { json, inputTokens: tokenCount(Number(headerValue(headers, TOKEN_HEADER))) };
  }

  /** Releases the HTTP connections of a client the adapter built (not of one you passed in). */
  destroy(): void {
    if (this.owned) this.client.destroy();
  }
}

const TOKEN_HEADER = 'x-amzn-bedrock-input-token-count';

function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  return undefined;
}
