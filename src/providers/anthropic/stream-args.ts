import { isRecord } from '../../core/kit/guards';
import { ModelProtocolError } from '../../core/errors/provider-errors';
import { PROVIDER } from './options';

/** The parts of a streamed `tool_use` block that decide its args. */
export interface StreamedCall {
  id: string;
  name: string;
  /** The concatenated `input_json_delta` fragments. */
  args: string;
  /** The `input` of `content_block_start` as JSON text (`''` when empty). */
  startInput: string;
  /** Whether its `content_block_stop` arrived. */
  stopped: boolean;
}

/** A malformed stream: `ModelProtocolError` with the message prefixed `stream: `. Internal. */
export function protocolError(message: string, cause?: unknown): ModelProtocolError {
  return new ModelProtocolError(PROVIDER, `stream: ${message}`, { cause });
}

/**
 * The args of a streamed call, normalised as `generate` would: `{}` when nothing arrived, else
 * the input re-serialised. A finished block whose input is not a JSON object is a protocol error;
 * a block cut off before its stop (`max_tokens`) keeps its raw, partial text.
 */
export function toolArgs(block: StreamedCall): string {
  const raw = block.args !== '' ? block.args : block.startInput;
  if (raw.trim() === '') return '{}';
  let input: unknown;
  try {
    input = JSON.parse(raw);
  } catch (cause) {
    if (!block.stopped) return raw;
    throw protocolError(
      `the input of tool call ${JSON.stringify(block.id)} (${block.name}) is not valid JSON`,
      cause,
    );
  }
  if (isRecord(input)) return JSON.stringify(input);
  if (!block.stopped) return raw;
  throw protocolError(`the input of tool call ${JSON.stringify(block.id)} is not a JSON object`);
}

/** A frame for messages: JSON-quoted, cut at 120 characters. */
export function preview(data: string): string {
  return JSON.stringify(data.length > 120 ? `${data.slice(0, 120)}…` : data);
}
