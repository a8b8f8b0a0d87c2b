import type { Attributes, Context } from '@opentelemetry/api';
import { trace } from '@opentelemetry/api';
import type { ToolLogEvent, ToolProgressEvent } from '../core/engine/events';
import { captureText } from './content';
import { scrubSecrets as scrub } from '../core/kit/scrub-secrets';
import { ATTR, EVENT } from './semconv';
import type { TraceSettings } from './trace-settings';

/** Longest `level` or `logger` name recorded (they are labels, not content). */
const MAX_LABEL = 64;

/**
 * A `tool_progress` or `tool_log` event (what a running tool reported through
 * `ToolContext.report`, e.g. an MCP server's progress and log notifications) as a span event on
 * the call's open `execute_tool` span (`context`): `golem.tool.progress` with the progress and
 * total, `golem.tool.log` with the level and logger. The progress message and the log data are
 * content: recorded only with content capture on, scrubbed and truncated. Nothing happens when
 * the call's span is not open (it ended, or the run is not recorded).
 */
export function recordToolUpdate(
  context: Context | undefined,
  event: ToolProgressEvent | ToolLogEvent,
  settings: TraceSettings,
): void {
  const span = context === undefined ? undefined : trace.getSpan(context);
  const update = event.update;
  if (span === undefined || !span.isRecording()) return;
  const content = settings.content;
  const attributes: Attributes = {};
  if (update.kind === 'progress') {
    if (typeof update.progress === 'number') attributes[ATTR.golemProgress] = update.progress;
    if (typeof update.total === 'number') attributes[ATTR.golemProgressTotal] = update.total;
    if (content !== undefined && typeof update.message === 'string')
      attributes[ATTR.golemProgressMessage] = captureText(update.message, content);
    span.addEvent(EVENT.toolProgress, attributes);
    return;
  }
  attributes[ATTR.golemLogLevel] = label(update.level, settings);
  if (typeof update.logger === 'string')
    attributes[ATTR.golemLogLogger] = label(update.logger, settings);
  if (content !== undefined && update.data !== undefined)
    attributes[ATTR.golemLogData] = captureText(json(update.data), content);
  span.addEvent(EVENT.toolLog, attributes);
}

function label(value: unknown, settings: TraceSettings): string {
  return scrub(String(value), settings.secrets).slice(0, MAX_LABEL);
}

/** Log data as text: strings as they are, other values as JSON (or their string form). */
function json(data: unknown): string {
  if (typeof data === 'string') return data;
  try {
    const text = JSON.stringify(data) as string | undefined;
    return text ?? String(data);
  } catch {
    return String(data);
  }
}
