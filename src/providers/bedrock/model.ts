import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { awsSdk, resolveClient, type AwsBedrockSdk } from './client';
import { throwIfCancelled } from '../../core/errors/cancellation';
import type { DeltaHandler, GenerateOptions, StreamingModel } from '../../core/contract/model';
import { ModelProtocolError } from '../../core/errors/provider-errors';
import type { ModelRequest } from '../../core/contract/request';
import type { ModelResponse } from '../../core/contract/response';
import { classifyError, type CallPhase } from './errors';
import { FrameGuard } from './frame-guard';
import { CallScope } from '../shared/call-scope';
import {
  limitsOf,
  maxFrameBytesOf,
  settingsOf,
  validateOptions,
  type BedrockOptions,
  type CallLimits,
} from './options';
import { toConverseInput, type RequestDefaults } from './request';
import { ResponseGuard } from './response-guard';
import { fromConverseOutput } from './response';
import { PROVIDER, loadBedrockSdk } from './sdk';
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
  private readonly sdk: AwsBedrockSdk;
  private readonly client: BedrockRuntimeClient;
  private readonly ownsClient: boolean;
  private readonly secrets: readonly string[];
  private readonly defaults: RequestDefaults;
  private readonly maxFrameBytes: number;
  private readonly limits: CallLimits;

  constructor(options: BedrockOptions) {
    validateOptions(options);
    this.modelId = options.model;
    this.name = `${PROVIDER}:${options.model}`;
    this.sdk = awsSdk(loadBedrockSdk(options.loadSdk));
    const resolved = resolveClient(options, this.sdk);
    this.client = resolved.client;
    this.ownsClient = resolved.owned;
    this.secrets = resolved.secrets;
    this.maxFrameBytes = maxFrameBytesOf(options);
    this.limits = limitsOf(options);
    this.defaults = {
      modelId: options.model,
      settings: settingsOf(options),
      ...(options.additionalModelRequestFields === undefined
        ? {}
        : { additionalModelRequestFields: { ...options.additionalModelRequestFields } }),
    };
  }

  /** One Converse call, bounded by the adapter's timeout and response limits. */
  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    const { signal } = options;
    throwIfCancelled(signal);
    const command = new this.sdk.ConverseCommand(toConverseInput(request, this.defaults));
    const guard = this.responseGuard(command, false);
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
    return fromConverseOutput(output, this.modelId);
  }

  /**
   * One ConverseStream call: deltas are delivered in arrival order (an async handler is awaited
   * before reading on; its error stops the stream and is rethrown as is) and the assembled
   * response is returned once `metadata` follows `messageStop` — without waiting for the server
   * to close the connection — or the stream ends after `messageStop`.
   */
  async stream(
    request: ModelRequest,
    onDelta: DeltaHandler,
    options: GenerateOptions = {},
  ): Promise<ModelResponse> {
    const { signal } = options;
    throwIfCancelled(signal);
    const command = new this.sdk.ConverseStreamCommand(toConverseInput(request, this.defaults));
    const frames = new FrameGuard(this.maxFrameBytes);
    // Typed structurally (golem does not depend on @smithy/types); innermost deserialize step.
    command.middlewareStack.add(frames.middleware as never, {
      step: 'deserialize',
      priority: 'low',
      name: 'golemBedrockFrameGuard',
    });
    const guard = this.responseGuard(command, true);
    const assembler = new StreamAssembler(this.modelId);
    let handlerFailure: { error: unknown } | undefined;
    const scope = new CallScope({ provider: PROVIDER, timeout: this.limits.timeout, signal });
    await scope.run(
      async (callSignal) => {
        try {
          const output = await this.client.send(command, { abortSignal: callSignal });
          if (output.stream === undefined)
            throw new ModelProtocolError(
              PROVIDER,
              'the ConverseStream response has no event stream',
            );
          for await (const event of output.stream) {
            const delta = assembler.accept(event);
            if (delta !== undefined) {
              try {
                await onDelta(delta);
              } catch (error) {
                handlerFailure = { error };
                throw error;
              }
            }
            if (assembler.finished) break; // metadata after messageStop: nothing more to read
          }
        } catch (error) {
          if (handlerFailure !== undefined) throw handlerFailure.error;
          if (guard.failure !== undefined) throw guard.failure;
          if (frames.problem !== undefined) throw new ModelProtocolError(PROVIDER, frames.problem);
          if (ModelProtocolError.is(error)) throw error;
          if (callSignal.aborted) throw error;
          const phase: CallPhase = frames.responded ? 'stream' : 'request';
          throw classifyError(error, { phase, signal, secrets: this.secrets });
        }
      },
      (error) => handlerFailure?.error === error,
    );
    return assembler.finish();
  }

  private responseGuard(
    command: { middlewareStack: { add: (middleware: never, options: object) => void } },
    streaming: boolean,
  ): ResponseGuard {
    const guard = new ResponseGuard({ ...this.limits, streaming, secrets: this.secrets });
    command.middlewareStack.add(guard.middleware as never, {
      step: 'deserialize',
      priority: 'low',
      name: 'golemBedrockResponseGuard',
    });
    return guard;
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
