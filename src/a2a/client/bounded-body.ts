/**
 * Reads a response body as UTF-8 text, at most `maxBytes` bytes of it: past the cap the body is
 * cancelled and `onOverflow` builds the error thrown. A missing body reads as `''`.
 */
export async function readBoundedText(
  response: Response,
  maxBytes: number,
  onOverflow: () => Error,
): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await body.cancel().catch(() => undefined);
    throw onOverflow();
  }
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  let total = 0;
  let text = '';
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      total += chunk.value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw onOverflow();
      }
      text += decoder.decode(chunk.value, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    reader.releaseLock();
  }
}
