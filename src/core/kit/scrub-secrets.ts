import { redact } from './redact';

/**
 * Well-known credential shapes: API keys (OpenAI, Anthropic `sk-ant-…`, OpenRouter `sk-or-…`),
 * Google `AIza…` keys, AWS access key ids, `Bearer`/`Basic` credentials, header-like
 * `authorization: …` / `x-api-key: …` values, and `?key=`-style query values.
 */
const PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/\bsk-[A-Za-z0-9_-]{12,}/g, '[redacted]'],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, '[redacted]'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, '[redacted]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]{8,}=*/gi, '$1 [redacted]'],
  [
    /\b((?:proxy-)?authorization|x-api-key|api-key|x-goog-api-key)(["']?\s*[:=]\s*["']?)(?!Bearer\b|Basic\b)[^\s"',;}]+/gi,
    '$1$2[redacted]',
  ],
  [/([?&](?:key|api[-_]?key|access_token|token|sig|signature)=)[^&\s"'<>]+/gi, '$1[redacted]'],
];

/**
 * `text` bound for telemetry or logs with every literal of `secrets` (in every form it may take:
 * as given, JSON-escaped, URL-encoded; see `redact`) and every well-known credential shape
 * replaced by `[redacted]`. Internal: spans (golem/otel) and request logs (golem/middleware).
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = secrets.length === 0 ? text : redact(text, secrets);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
