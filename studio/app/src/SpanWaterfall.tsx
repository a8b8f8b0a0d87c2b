import type { SpanSummary } from '../../../src/studio/api-types';
import { duration } from './format';

interface Row {
  readonly span: SpanSummary;
  readonly depth: number;
}

/** Spans in tree order (children after their parent, by start time), with their depth. */
export function spanRows(spans: readonly SpanSummary[]): Row[] {
  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string, SpanSummary[]>();
  const roots: SpanSummary[] = [];
  for (const span of spans) {
    const parent = span.parentSpanId;
    if (parent !== undefined && parent !== '' && ids.has(parent)) {
      const list = children.get(parent) ?? [];
      list.push(span);
      children.set(parent, list);
    } else roots.push(span);
  }
  const byStart = (a: SpanSummary, b: SpanSummary): number => a.startMs - b.startMs;
  const rows: Row[] = [];
  const seen = new Set<string>();
  const walk = (span: SpanSummary, depth: number): void => {
    if (seen.has(span.spanId)) return;
    seen.add(span.spanId);
    rows.push({ span, depth });
    for (const child of (children.get(span.spanId) ?? []).sort(byStart)) walk(child, depth + 1);
  };
  for (const root of roots.sort(byStart)) walk(root, 0);
  return rows;
}

/** The run's spans as a waterfall: bars by start and duration, nested by parent. */
export function SpanWaterfall({ spans }: { spans: readonly SpanSummary[] }) {
  if (spans.length === 0) return null;
  const start = Math.min(...spans.map((span) => span.startMs));
  const end = Math.max(...spans.map((span) => span.startMs + span.durationMs));
  const total = Math.max(end - start, 1);
  return (
    <section className="panel" data-testid="span-waterfall">
      <header className="panel-head">
        <h2>Spans</h2>
        <span className="muted small">
          {spans.length} span{spans.length === 1 ? '' : 's'} · {duration(total)}
        </span>
      </header>
      <div className="waterfall">
        {spanRows(spans).map(({ span, depth }) => (
          <div
            className="span-row"
            key={span.spanId}
            title={`${span.name} · ${duration(span.durationMs)}`}
          >
            <div className="span-name mono small" style={{ paddingLeft: `${depth * 12}px` }}>
              {span.name}
            </div>
            <div className="span-track">
              <div
                className={`span-bar span-${span.status}`}
                data-testid="span-bar"
                data-span-id={span.spanId}
                style={{
                  left: `${((span.startMs - start) / total) * 100}%`,
                  width: `${Math.max((span.durationMs / total) * 100, 0.4)}%`,
                }}
              />
            </div>
            <div className="span-time mono small muted">{duration(span.durationMs)}</div>
          </div>
        ))}
      </div>
    </section>
  );
}
