/**
 * Helpers of the model-string resolver tests: a fetch that records the first request and fails,
 * a fake Bedrock SDK that records client configurations, and an error catcher.
 */
import type { ModelRequest, StreamingModel } from 'golem';
import type { BedrockSdk } from 'golem/providers/bedrock';
import { ConfigError } from 'golem';

/** One request seen by {@link recordingFetch}. */
export interface SeenRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that records each request and then fails it (nothing leaves the process). */
export function recordingFetch(): {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  seen: SeenRequest[];
} {
  const seen: SeenRequest[] = [];
  return {
    seen,
    fetch: (input, init) => {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      seen.push({ url: input, headers, body });
      return Promise.reject(new Error('recorded; not sent'));
    },
  };
}

/** A one-message request. */
export const hi: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

/** Calls `generate` through the model (the recording fetch makes it fail) and returns the request. */
export async function firstRequest(
  model: StreamingModel,
  seen: SeenRequest[],
): Promise<SeenRequest> {
  await expect(model.generate(hi)).rejects.toThrow();
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

/** A fake `@aws-sdk/client-bedrock-runtime` whose client records the configuration it gets. */
export function fakeBedrockSdk(): { loadSdk: () => BedrockSdk; configs: unknown[] } {
  const configs: unknown[] = [];
  class FakeClient {
    readonly config: unknown;
    constructor(config: unknown) {
      this.config = config;
      configs.push(config);
    }
    send(): Promise<never> {
      return Promise.reject(new Error('fake client'));
    }
    destroy(): void {
      // nothing to close
    }
  }
  class FakeCommand {}
  const sdk = {
    BedrockRuntimeClient: FakeClient,
    ConverseCommand: FakeCommand,
    ConverseStreamCommand: FakeCommand,
  } as unknown as BedrockSdk;
  return { loadSdk: () => sdk, configs };
}

/** The `resolve` `ConfigError` `run` throws (fails the test when it throws something else). */
export function resolutionError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (ConfigError.is(error, 'resolve')) return error;
    throw error;
  }
  throw new Error('expected a resolve ConfigError');
}
