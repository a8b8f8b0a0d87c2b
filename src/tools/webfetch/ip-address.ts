import { isIPv4, isIPv6 } from 'node:net';

/**
 * The bytes of an IP address in standard text form: 4 for IPv4 (dotted decimal), 16 for IPv6
 * (with `::` compression, an optional trailing dotted quad and an optional `%zone`, which is
 * ignored). Brackets are not accepted. Returns `undefined` for anything else.
 */
export function ipBytes(text: string): number[] | undefined {
  if (isIPv4(text)) return text.split('.').map(Number);
  const bare = stripZone(text);
  if (!isIPv6(bare)) return undefined;
  return ipv6Bytes(bare);
}

/** Dotted-decimal text of 4 bytes. */
export function ipv4Text(bytes: readonly number[]): string {
  return bytes.join('.');
}

function stripZone(text: string): string {
  const percent = text.indexOf('%');
  return percent === -1 ? text : text.slice(0, percent);
}

/** Parses an IPv6 address already validated by `isIPv6`. */
function ipv6Bytes(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = groups(halves[0] ?? '');
  const tail = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

/** 16-bit groups of one side of `::`; a trailing dotted quad counts as two groups. */
function groups(side: string): number[] | undefined {
  if (side === '') return [];
  const parts = side.split(':');
  const out: number[] = [];
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1 && part.includes('.')) {
      if (!isIPv4(part)) return undefined;
      const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
      out.push((a << 8) | b, (c << 8) | d);
    } else {
      if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined;
      out.push(parseInt(part, 16));
    }
  }
  return out;
}
