/** Longest chunk of a document `addDocuments` embeds, in characters. */
export const MAX_CHUNK_CHARS = 2000;

/**
 * Splits `text` into chunks of at most `max` characters: whole paragraphs (blank-line separated)
 * are packed together; a paragraph longer than `max` is split at the last whitespace before the
 * limit (or hard at the limit when it has none). Empty paragraphs are dropped.
 */
export function chunkText(text: string, max: number = MAX_CHUNK_CHARS): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const raw of text.split(/\n\s*\n/)) {
    const paragraph = raw.trim();
    if (paragraph === '') continue;
    for (const piece of splitLong(paragraph, max)) {
      if (current === '') current = piece;
      else if (current.length + 2 + piece.length <= max) current += `\n\n${piece}`;
      else {
        chunks.push(current);
        current = piece;
      }
    }
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

function splitLong(paragraph: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = paragraph;
  while (rest.length > max) {
    const space = rest.lastIndexOf(' ', max);
    const cut = space > 0 ? space : max;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== '') pieces.push(rest);
  return pieces;
}
