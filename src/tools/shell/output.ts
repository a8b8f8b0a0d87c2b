/** Bytes read and discarded past the cap before a still-writing command is killed. */
export const DRAIN_LIMIT = 16 * 1_048_576;

/**
 * stdout and stderr in arrival order, capped at `maxBytes`. Past the cap, bytes are discarded
 * (memory stays bounded) and counted; `append` reports `'flood'` once {@link DRAIN_LIMIT} more
 * bytes have been discarded, so the caller can kill a command that will not stop writing.
 */
export class OutputBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  constructor(readonly maxBytes: number) {}

  /** Whether the output went past the cap. */
  get truncated(): boolean {
    return this.total > this.maxBytes;
  }

  /** Bytes received in all. */
  get received(): number {
    return this.total;
  }

  append(chunk: Buffer): 'ok' | 'flood' {
    this.total += chunk.length;
    const room = this.maxBytes - this.kept;
    if (room > 0) {
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    return this.total - this.maxBytes > DRAIN_LIMIT ? 'flood' : 'ok';
  }

  /** The kept bytes as UTF-8 (an incomplete sequence left by the cut is dropped). */
  text(): string {
    const data = Buffer.concat(this.chunks, this.kept);
    return (this.truncated ? trimPartialUtf8(data) : data).toString('utf8');
  }
}

function trimPartialUtf8(data: Buffer): Buffer {
  let lead = data.length - 1;
  while (lead >= 0 && data.length - lead < 4 && ((data[lead] ?? 0) & 0xc0) === 0x80) lead--;
  if (lead < 0) return data;
  const byte = data[lead] ?? 0;
  const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return data.length - lead < need ? data.subarray(0, lead) : data;
}

/** How the command ended. */
export type Ending =
  | { kind: 'exit'; code: number }
  | { kind: 'signal'; signal: string }
  | { kind: 'flood'; bytes: number };

/**
 * The model-facing result: the output, then — after a blank line — a truncation line when the
 * cap cut it, and a status line unless the command exited with status 0.
 */
export function renderResult(
  output: string,
  truncatedAt: number | undefined,
  ending: Ending,
): string {
  const lines: string[] = [];
  if (truncatedAt !== undefined) lines.push(`[shell: output truncated at ${truncatedAt} bytes]`);
  if (ending.kind === 'exit' && ending.code !== 0) {
    lines.push(`[shell: exited with status ${ending.code}]`);
  } else if (ending.kind === 'signal') {
    lines.push(`[shell: killed by signal ${ending.signal}]`);
  } else if (ending.kind === 'flood') {
    lines.push(`[shell: killed after writing more than ${ending.bytes} bytes]`);
  }
  if (lines.length === 0) return output;
  if (output === '') return lines.join('\n');
  return `${output}${output.endsWith('\n') ? '\n' : '\n\n'}${lines.join('\n')}`;
}
