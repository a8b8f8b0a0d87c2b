import type { FileHandle } from 'node:fs/promises';
import { throwIfCancelled } from '../../core/errors/cancellation';
import { ModelRetry } from '../../core/errors/errors';
import { UnsupportedContentError } from './errors';
import { quotePath } from './path-syntax';
import { SNIFF_LENGTH, isReadableText, sniffContentType } from './sniff';

/** What to read. Internal. */
export interface ReadRequest {
  path: string;
  startLine: number;
  endLine: number | undefined;
  maxBytes: number;
  maxLines: number;
  signal: AbortSignal;
}

const CHUNK = 65_536;
const NEWLINE = 0x0a;

/** Drops an incomplete UTF-8 sequence at the end of `data` (left by a byte cut). */
function trimPartialUtf8(data: Buffer): Buffer {
  let lead = data.length - 1;
  let seen = 0;
  while (lead >= 0 && seen < 4 && ((data[lead] ?? 0) & 0xc0) === 0x80) {
    lead--;
    seen++;
  }
  if (lead < 0) return data;
  const byte = data[lead] ?? 0;
  const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return data.length - lead < need ? data.subarray(0, lead) : data;
}

/**
 * Reads the selected lines of an open regular file: sniffs the first 512 bytes (binary →
 * `UnsupportedContentError`), then streams the file, keeping at most `maxLines` lines and
 * `maxBytes` bytes of the selection, and appends a truncation marker when a cap cut it short.
 * Memory stays bounded by the caps plus one chunk; `signal` is checked between chunks.
 */
export async function readText(handle: FileHandle, request: ReadRequest): Promise<string> {
  const { path, startLine, endLine, maxBytes, maxLines, signal } = request;
  const lastByCap = startLine + maxLines - 1;
  const last = Math.min(endLine ?? Number.POSITIVE_INFINITY, lastByCap);
  const buffer = Buffer.alloc(CHUNK);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let line = 1;
  let position = 0;
  let endsWithNewline = true;
  let byteCut = false;
  let lineCut = false;
  for (;;) {
    throwIfCancelled(signal);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
    if (position === 0) {
      const type = sniffContentType(buffer.subarray(0, Math.min(bytesRead, SNIFF_LENGTH)));
      if (!isReadableText(type)) throw new UnsupportedContentError(path, type);
    }
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = buffer.subarray(0, bytesRead);
    endsWithNewline = data[bytesRead - 1] === NEWLINE;
    let at = 0;
    while (at < data.length) {
      if (line > last) {
        lineCut = true;
        break;
      }
      const newline = data.indexOf(NEWLINE, at);
      const end = newline === -1 ? data.length : newline + 1;
      if (line >= startLine) {
        const room = maxBytes - keptBytes;
        if (end - at > room) {
          kept.push(Buffer.from(data.subarray(at, at + room)));
          keptBytes += room;
          byteCut = true;
          break;
        }
        kept.push(Buffer.from(data.subarray(at, end)));
        keptBytes += end - at;
      }
      at = end;
      if (newline !== -1) line++;
    }
    if (byteCut || lineCut) break;
  }
  const lines = line - (endsWithNewline ? 1 : 0);
  if (!byteCut && !lineCut && startLine > Math.max(lines, 1)) {
    throw new ModelRetry(
      `startLine ${startLine} is past the end of ${quotePath(path)}, which has ${lines} line${lines === 1 ? '' : 's'}`,
    );
  }
  const text = Buffer.concat(kept, keptBytes);
  if (byteCut) {
    return withMarker(
      trimPartialUtf8(text).toString('utf8'),
      `[fileread: file truncated at ${maxBytes} bytes]`,
    );
  }
  const body = text.toString('utf8');
  if (lineCut && (endLine === undefined || endLine > lastByCap)) {
    const unit = maxLines === 1 ? 'line' : 'lines';
    return withMarker(
      body,
      `[fileread: file truncated at ${maxLines} ${unit}; continue with startLine ${lastByCap + 1}]`,
    );
  }
  return body;
}

/** `text`, a blank line, then `marker` (one newline is enough when `text` already ends a line). */
export function withMarker(text: string, marker: string): string {
  if (text === '') return marker;
  return `${text}${text.endsWith('\n') ? '\n' : '\n\n'}${marker}`;
}
