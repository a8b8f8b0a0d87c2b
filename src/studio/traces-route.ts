import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJson, replyError, replyJson } from './http-io';
import { otlpSpans } from './otlp-json';
import type { SpanStore } from './span-store';

/**
 * `POST /v1/traces`: an OTLP/HTTP JSON trace export, its spans kept in `spans`; answers
 * `{ partialSuccess: {} }` (415 for another encoding, 400 for a body that is not an export).
 */
export async function ingestTraces(
  spans: SpanStore,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/json')) {
    replyError(
      res,
      415,
      'the studio accepts OTLP/HTTP JSON only: set OTEL_EXPORTER_OTLP_PROTOCOL=http/json',
    );
    return;
  }
  const body = await readJson(req, res);
  if (body === undefined) return;
  const got = otlpSpans(body.value);
  if (got === undefined) {
    replyError(res, 400, 'the body is not an OTLP trace export');
    return;
  }
  spans.add(got);
  replyJson(res, 200, { partialSuccess: {} });
}
