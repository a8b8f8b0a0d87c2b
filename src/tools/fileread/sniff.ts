/**
 * Content sniffing after the WHATWG MIME Sniffing Standard, equivalent to Go's
 * `http.DetectContentType` with one hardening: text signatures (HTML, XML) only count when the
 * window holds no binary data bytes, so `<html>` followed by NUL bytes is binary.
 */

/** Bytes examined, as in the standard. */
export const SNIFF_LENGTH = 512;

interface Signature {
  /** Pattern bytes; compared under `mask` when given. */
  pattern: number[];
  mask?: number[];
  type: string;
}

const bytes = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));
const exact = (text: string, type: string): Signature => ({ pattern: bytes(text), type });
const masked = (mask: string, text: string, type: string): Signature => ({
  pattern: bytes(text),
  mask: bytes(mask),
  type,
});

const RIFF_MASK = '\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF';

/** Signatures checked before the binary-byte test, in Go's order. */
const SIGNATURES: readonly Signature[] = [
  exact('%PDF-', 'application/pdf'),
  exact('%!PS-Adobe-', 'application/postscript'),
  masked('\xFF\xFF\x00\x00', '\xFE\xFF\x00\x00', 'text/plain; charset=utf-16be'),
  masked('\xFF\xFF\x00\x00', '\xFF\xFE\x00\x00', 'text/plain; charset=utf-16le'),
  masked('\xFF\xFF\xFF\x00', '\xEF\xBB\xBF\x00', 'text/plain; charset=utf-8'),
  exact('\x00\x00\x01\x00', 'image/x-icon'),
  exact('\x00\x00\x02\x00', 'image/x-icon'),
  exact('BM', 'image/bmp'),
  exact('GIF87a', 'image/gif'),
  exact('GIF89a', 'image/gif'),
  masked(`${RIFF_MASK}\xFF\xFF`, 'RIFF\x00\x00\x00\x00WEBPVP', 'image/webp'),
  exact('\x89PNG\x0D\x0A\x1A\x0A', 'image/png'),
  exact('\xFF\xD8\xFF', 'image/jpeg'),
  masked(RIFF_MASK, 'FORM\x00\x00\x00\x00AIFF', 'audio/aiff'),
  exact('ID3', 'audio/mpeg'),
  exact('OggS\x00', 'application/ogg'),
  exact('MThd\x00\x00\x00\x06', 'audio/midi'),
  masked(RIFF_MASK, 'RIFF\x00\x00\x00\x00AVI ', 'video/avi'),
  masked(RIFF_MASK, 'RIFF\x00\x00\x00\x00WAVE', 'audio/wave'),
  exact('\x1A\x45\xDF\xA3', 'video/webm'),
  masked(`${'\x00'.repeat(34)}\xFF\xFF`, `${'\x00'.repeat(34)}LP`, 'application/vnd.ms-fontobject'),
  exact('\x00\x01\x00\x00', 'font/ttf'),
  exact('OTTO', 'font/otf'),
  exact('ttcf', 'font/collection'),
  exact('wOFF', 'font/woff'),
  exact('wOF2', 'font/woff2'),
  exact('\x1F\x8B\x08', 'application/x-gzip'),
  exact('PK\x03\x04', 'application/zip'),
  exact('Rar!\x1A\x07\x00', 'application/x-rar-compressed'),
  exact('Rar!\x1A\x07\x01\x00', 'application/x-rar-compressed'),
  exact('\x00\x61\x73\x6D', 'application/wasm'),
];

/** HTML tags that identify a document (after leading whitespace, case-insensitive). */
const HTML_TAGS = [
  '<!DOCTYPE HTML',
  '<HTML',
  '<HEAD',
  '<SCRIPT',
  '<IFRAME',
  '<H1',
  '<DIV',
  '<FONT',
  '<TABLE',
  '<A',
  '<STYLE',
  '<TITLE',
  '<B',
  '<BODY',
  '<BR',
  '<P',
  '<!--',
].map(bytes);

function matches(data: Uint8Array, signature: Signature): boolean {
  const { pattern, mask } = signature;
  if (data.length < pattern.length) return false;
  return pattern.every((p, i) => ((data[i] ?? 0) & (mask?.[i] ?? 0xff)) === p);
}

function isMp4(data: Uint8Array): boolean {
  if (data.length < 12) return false;
  const boxSize =
    ((data[0] ?? 0) << 24) | ((data[1] ?? 0) << 16) | ((data[2] ?? 0) << 8) | (data[3] ?? 0);
  if (boxSize < 12 || boxSize % 4 !== 0 || data.length < boxSize) return false;
  if (String.fromCharCode(...data.subarray(4, 8)) !== 'ftyp') return false;
  for (let at = 8; at < boxSize; at += 4) {
    if (at === 12) continue;
    if (String.fromCharCode(...data.subarray(at, at + 3)) === 'mp4') return true;
  }
  return false;
}

/** WHATWG "binary data byte": 0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F. */
export function isBinaryDataByte(byte: number): boolean {
  return (
    byte <= 0x08 ||
    byte === 0x0b ||
    (byte >= 0x0e && byte <= 0x1a) ||
    (byte >= 0x1c && byte <= 0x1f)
  );
}

const isWhitespace = (byte: number): boolean =>
  byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d || byte === 0x20;

function textType(data: Uint8Array): string {
  let start = 0;
  while (start < data.length && isWhitespace(data[start] ?? 0)) start++;
  const rest = data.subarray(start);
  for (const tag of HTML_TAGS) {
    if (rest.length <= tag.length) continue;
    const same = tag.every(
      (t, i) => ((rest[i] ?? 0) & (t >= 0x41 && t <= 0x5a ? 0xdf : 0xff)) === t,
    );
    const next = rest[tag.length];
    if (same && (next === 0x20 || next === 0x3e)) return 'text/html; charset=utf-8';
  }
  if (String.fromCharCode(...rest.subarray(0, 5)) === '<?xml') return 'text/xml; charset=utf-8';
  return 'text/plain; charset=utf-8';
}

/**
 * The content type of `data` judged from its first {@link SNIFF_LENGTH} bytes: empty →
 * `text/plain; charset=utf-8`; a known signature → its type; any binary data byte →
 * `application/octet-stream`; otherwise HTML, XML or plain text.
 */
export function sniffContentType(data: Uint8Array): string {
  const window = data.subarray(0, SNIFF_LENGTH);
  if (window.length === 0) return 'text/plain; charset=utf-8';
  for (const signature of SIGNATURES) if (matches(window, signature)) return signature.type;
  if (isMp4(window)) return 'video/mp4';
  if (window.some(isBinaryDataByte)) return 'application/octet-stream';
  return textType(window);
}

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/xhtml+xml',
  'application/javascript',
  'text/javascript',
]);

/** Whether a sniffed type is UTF-8 text the tool returns: `text/*`, JSON, XML, YAML, XHTML, JavaScript. */
export function isReadableText(contentType: string): boolean {
  const [essence = '', ...params] = contentType
    .toLowerCase()
    .split(';')
    .map((p) => p.trim());
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length);
  if (charset !== undefined && charset !== 'utf-8') return false;
  return essence.startsWith('text/') || TEXT_TYPES.has(essence);
}
