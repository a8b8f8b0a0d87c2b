/** A long id shortened for tables (the full id stays in the title and the link). */
export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 12)}…` : id;
}

/** A token count: 950, 12.3k, 4.5M. */
export function count(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Time since `ms` (epoch ms) in words: "12s ago", "3h ago". */
export function relativeTime(ms: number, now: number = Date.now()): string {
  const seconds = Math.round((now - ms) / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

/** An absolute local time. */
export function dateTime(ms: number): string {
  return new Date(ms).toLocaleString();
}

/** A duration: 850 ms, 3.2 s, 4m 05s. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}

/** A 0–1 share as a percentage. */
export function percent(share: number): string {
  return `${(share * 100).toFixed(share === 1 || share === 0 ? 0 : 1)}%`;
}

/** Any JSON value, pretty-printed (strings as they are). */
export function prettyJson(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    const text = JSON.stringify(value, null, 2) as string | undefined;
    return text ?? String(value);
  } catch {
    return String(value);
  }
}

/** A JSON text pretty-printed when it parses, else as given. */
export function prettyJsonText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A price: `0.0042 USD` (4 significant digits below one, 2 decimals above). */
export function money(cost: { readonly total: number; readonly currency: string }): string {
  const { total, currency } = cost;
  const text = total >= 1 ? total.toFixed(2) : total === 0 ? '0' : total.toPrecision(2);
  return `${text} ${currency}`;
}
