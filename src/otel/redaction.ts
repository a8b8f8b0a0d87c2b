import { redact } from '../core/kit/redact';

/** Well-known credential shapes, scrubbed from every text a span carries. */
const PATTERNS: readonly [RegExp, string][] = [
  [/\bsk-[A-Za-z0-9_-]{12,}/g, '[redacted]'], // OpenAI, Anthropic (sk-ant-…), OpenRouter (sk-or-…)
  [/\bAIza[0-9A-Za-z_-]{30,}/g, '[redacted]'], // Google API keys
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, '[redacted]'], // AWS access key ids
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]{8,}=*/gi, '$1 [redacted]'],
  [/([?&](?:key|api[-_]?key|access_token|token|sig|signature)=)[^&\s"'<>]+/gi, '$1[redacted]'],
];

/**
 * Removes secrets from text bound for telemetry: every `secrets` entry (in every form it may
 * take: as given, JSON-escaped, URL-encoded) and well-known credential shapes (OpenAI/Anthropic
 * `sk-…` keys, Google `AIza…` keys, AWS access key ids, bearer tokens, `?key=` query values).
 */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = secrets.length === 0 ? text : redact(text, secrets);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
