import type { BedrockRuntimeClient, ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { throwIfCancelled } from '../../model/cancellation';
import type { DeltaHandler, GenerateOptions, StreamingModel } from '../../model/model';
import { ModelProtocolError } from '../../model/provider-errors';
import type { ModelRequest } from '../../model/request';
import type { ModelResponse } from '../../model/response';
import { classifyError, type CallPhase } from './errors';
import { FrameGuard } from './frame-guard';
import {
  maxFrameBytesOf,
  resolveClient,
  settingsOf,
  validateOptions,
  type BedrockOptions,
} from './options';
import { toConverseInput, type RequestDefaults } from './request';
import { fromConverseOutput } from './response';
import { PROVIDER, loadBedrockSdk, type BedrockSdk } from './sdk';
import { StreamAssembler } from './stream';

/**
 * AWS Bedrock through the Converse and ConverseStream APIs. The AWS SDK
 * (`@aws-sdk/client-bedrock-runtime`, an optional peer dependency loaded lazily) provides SigV4
 * signing, the credential chain and event-stream framing; this class translates golem requests,
 * normalises responses and classifies failures. Configuration is validated at construction.
 */
export class BedrockModel implements StreamingModel {
  /** `bedrock:<model id>`. */
  readonly name: string;
  /** The Bedrock model id requests are sent to. */
  readonly modelId: string;
  private readonly sdk: BedrockSdk;
  private readonly client: BedrockRuntimeClient;
  private readonly ownsClient: boolean;
  private readonly secrets: readonly string[];
  private readonly defaults: RequestDefaults;
  private readonly maxFrameBytes: number;

  constructor(options: BedrockOptions) {
    validateOptions(options);
    this.modelId = options.model;
    this.name = `${PROVIDER}:${options.model}`;
    this.sdk = loadBedrockSdk(options.loadSdk);
    const resolved = resolveClient(options, this.sdk);
    this.client = resolved.client;
    this.ownsClient = resolved.owned;
    this.secrets = resolved.secrets;
    this.maxFrameBytes = maxFrameBytesOf(options);
    this.defaults = {
      modelId: options.model,
      settings: settingsOf(options),
      ...(options.additionalModelRequestFields === undefined
        ? {}
        : { additionalModelRequestFields: { ...options.additionalModelRequestFields } }),
    };
  }

  /** One Converse call. */
  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    const { signal } = options;
    throwIfCancelled(signal);
    const command = new this.sdk.ConverseCommand(toConverseInput(request, this.defaults));
    let output: ConverseCommandOutput;
    try {
      output = await this.client.send(command, { abortSignal: signal });
    } catch (error) {
      throw classifyError(error, { phase: 'request', signal, secrets: this.secrets });
    }
    return fromConverseOutput(output, this.modelId);
  }

  /**
   * One ConverseStream call: deltas are delivered in arrival order (an async handler is awaited
   * before reading on; its error stops the stream and is rethrown as is) and the assembled
   * response is returned once the stream ends after `messageStop`.
   */
  async stream(
    request: ModelRequest,
    onDelta: DeltaHandler,
    options: GenerateOptions = {},
  ): Promise<ModelResponse> {
    const { signal } = options;
    throwIfCancelled(signal);
    const command = new this.sdk.ConverseStreamCommand(toConverseInput(request, this.defaults));
    const guard = new FrameGuard(this.maxFrameBytes);
    // Typed structurally (golem does not depend on @smithy/types); innermost deserialize step.
    command.middlewareStack.add(guard.middleware as never, {
      step: 'deserialize',
      priority: 'low',
      name: 'golemBedrockFrameGuard',
    });
    const controller = new AbortController();
    const onAbort = (): void => {
      controller.abort(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const assembler = new StreamAssembler(this.modelId);
    let handlerFailure: { error: unknown } | undefined;
    let finished = false;
    try {
      const output = await this.client.send(command, { abortSignal: controller.signal });
      if (output.stream === undefined)
        throw new ModelProtocolError(PROVIDER, 'the ConverseStream response has no event stream');
      for await (const event of output.stream) {
        const delta = assembler.accept(event);
        if (delta === undefined) continue;
        try {
          await onDelta(delta);
        } catch (error) {
          handlerFailure = { error };
          throw error;
        }
      }
      finished = true;
    } catch (error) {
      if (handlerFailure !== undefined) throw handlerFailure.error;
      if (guard.problem !== undefined) throw new ModelProtocolError(PROVIDER, guard.problem);
      if (ModelProtocolError.is(error)) throw error;
      const phase: CallPhase = guard.responded ? 'stream' : 'request';
      throw classifyError(error, { phase, signal, secrets: this.secrets });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!finished) controller.abort();
    }
    return assembler.finish();
  }

  /** Releases the HTTP connections of a client the adapter built (not of one you passed in). */
  destroy(): void {
    if (this.ownsClient) this.client.destroy();
  }
}

/** A Bedrock Converse model; see {@link BedrockOptions}. */
export function bedrock(options: BedrockOptions): BedrockModel {
  return new BedrockModel(options);
}
