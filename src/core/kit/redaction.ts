/**
 * Secret redaction in text, shared by the provider adapters and the MCP bridge (both may import
 * only `src/model`). Internal: each layer keeps its own entry points on top of it.
 */

/** What a secret is replaced with wherever one would appear. */
export const REDACTED = '[redacted]';

/** Secrets shorter than this are not redacted (they would blank out ordinary words). */
export const MIN_SECRET_LENGTH = 4;

/**
 * Every form the `secrets` can take in text a user or log may see — as given, trimmed (fetch
 * trims header values), JSON-escaped (a body or a message that quotes it) and URL-encoded —
 * without duplicates or forms shorter than {@link MIN_SECRET_LENGTH}, longest first, so a form
 * that contains another is replaced whole.
 */
export function secretForms(secrets: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const secret of secrets)
    for (const base of [secret, secret.trim()]) {
      if (base.length < MIN_SECRET_LENGTH) continue;
      out.add(base);
      out.add(JSON.stringify(base).slice(1, -1));
      try {
        out.add(encodeURIComponent(base));
      } catch {
        // a lone surrogate cannot be URL-encoded; nothing to add
      }
    }
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * `text` with every occurrence of each of `literals`, in the order given, replaced by
 * {@link REDACTED}; an empty literal is skipped.
 */
export function redactLiterals(text: string, literals: readonly string[]): string {
  let out = text;
  for (const literal of literals)
    if (literal !== '' && out.includes(literal)) out = out.split(literal).join(REDACTED);
  return out;
}

/** `text` with every secret, in every form it may take ({@link secretForms}), redacted. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return secrets.length === 0 ? text : redactLiterals(text, secretForms(secrets));
}
