import type { ModelResponse } from '../model/response';
import type { ToolCall } from '../model/message';
import type { OutputDecoder } from '../output/decoder';
import { AttemptsExhaustedError } from './errors';
import type { LoopEnd } from './loop';
import { runLoop } from './loop';
import type { Result } from './result';
import type { EngineConfig } from './run-config';
import type { RunState } from './run-state';
import { outputRejectedText, outputToolRejectedText, RESULT_RECORDED } from './texts';
import { findModelRetry, retryReason } from './tool-batch';

/**
 * Runs loop executions and decodes (spec §9): a decoder's `ModelRetry` within `outputRetries`
 * feeds the rejection back and starts a new loop execution with fresh turn and tool budgets.
 */
export async function executeRun<Deps, Output>(
  config: EngineConfig<Deps>,
  decoder: OutputDecoder<Output>,
  state: RunState<Deps>,
): Promise<Result<Output>> {
  for (let round = 0; ; round++) {
    const end: LoopEnd = await runLoop(config, state);
    if (end.kind === 'paused')
      return { ...evidence(state), output: undefined, pending: end.pending };
    const response: ModelResponse = end.response;
    let output: Output;
    try {
      output = await decoder(response, { signal: state.run.signal, deps: state.run.deps });
    } catch (error) {
      const retry = findModelRetry(error);
      if (retry === undefined || round >= config.outputRetries) {
        throw state.fail(
          'decode',
          round > 0 ? new AttemptsExhaustedError('output', round + 1, error) : error,
        );
      }
      if (state.observed)
        state.emit({ kind: 'output_rejected', turn: 0, attempt: round + 1, error: retry });
      state.messages.push(
        rejection(end.kind === 'output' ? end.call : undefined, retryReason(retry)),
      );
      continue;
    }
    if (end.kind === 'output') {
      state.messages.push({
        role: 'tool',
        content: RESULT_RECORDED,
        toolCallId: end.call.id,
        toolName: end.call.name,
      });
    }
    return { ...evidence(state), output };
  }
}

function rejection(outputCall: ToolCall | undefined, reason: string) {
  return outputCall === undefined
    ? { role: 'user' as const, content: outputRejectedText(reason) }
    : {
        role: 'tool' as const,
        content: outputToolRejectedText(reason, outputCall.name),
        toolCallId: outputCall.id,
        toolName: outputCall.name,
      };
}

function evidence<Deps>(state: RunState<Deps>) {
  return {
    messages: [...state.messages],
    usage: { ...state.usage },
    requests: state.requests,
    toolCalls: state.toolCalls,
  };
}
