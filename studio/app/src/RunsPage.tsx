import { useCallback, useEffect, useState } from 'react';
import type { RunPage as RunPageBody, RunSummary } from '../../../src/studio/api-types';
import { count, dateTime, money, relativeTime, shortId } from './format';
import { mergeRuns, NO_FILTERS, runsQuery, type RunFilters } from './run-filters';
import { RunFiltersBar } from './RunFiltersBar';
import { href, navigate } from './router';
import { StatusDot } from './StatusBadge';
import { useApi } from './use-api';
import { useEventStream } from './use-event-stream';
import { useNow } from './use-now';

const LIMIT = 50;

function RunRow({ run, now }: { run: RunSummary; now: number }) {
  const link = href('runs', run.id);
  return (
    <tr
      data-testid="run-row"
      data-run-id={run.id}
      data-status={run.status}
      className="clickable"
      onClick={() => {
        navigate(link);
      }}
    >
      <td>
        <StatusDot status={run.status} />
      </td>
      <td className="mono" title={run.id}>
        <a
          href={link}
          onClick={(event) => {
            event.stopPropagation();
          }}
        >
          {shortId(run.id)}
        </a>
        {run.pending > 0 && <span className="tag warn">{run.pending} pending</span>}
        {run.error !== undefined && (
          <span className="tag danger" title={run.error.message}>
            {run.error.stage}
          </span>
        )}
      </td>
      <td>{run.agent}</td>
      <td className="mono muted">{run.owner ?? '—'}</td>
      <td className="num">{run.turns}</td>
      <td className="num">{run.toolCalls}</td>
      <td className="num mono">
        {count(run.usage.inputTokens)} / {count(run.usage.outputTokens)}
      </td>
      <td className="num mono" data-testid="run-cost">
        {run.cost === undefined ? '—' : money(run.cost)}
      </td>
      <td className="muted nowrap" title={dateTime(run.updatedAt)}>
        {relativeTime(run.updatedAt, now)}
      </td>
    </tr>
  );
}

/** `#/runs`: the filtered, paged, live list of runs. */
export function RunsPage() {
  const [filters, setFilters] = useState<RunFilters>(NO_FILTERS);
  const [offset, setOffset] = useState(0);
  const [queryTime, setQueryTime] = useState(() => Date.now());
  const now = useNow(15_000);
  const page = useApi<RunPageBody>(runsQuery(filters, offset, LIMIT, queryTime));
  const [rows, setRows] = useState<readonly RunSummary[]>([]);
  useEffect(() => {
    if (page.data !== undefined) setRows(page.data.runs);
  }, [page.data]);
  const onFilters = useCallback((next: RunFilters) => {
    setFilters(next);
    setOffset(0);
    setQueryTime(Date.now());
  }, []);
  useEventStream('api/runs/stream', 'runs', (data) => {
    if (!Array.isArray(data) || data.length === 0) return;
    const changed = data as RunSummary[];
    setRows((current) => mergeRuns(current, changed, filters, offset === 0, LIMIT, Date.now()));
  });
  const total = page.data?.total;
  const unfiltered = JSON.stringify(filters) === JSON.stringify(NO_FILTERS);
  return (
    <section className="page">
      <header className="page-head">
        <h1>Runs</h1>
        <span className="muted">
          {total === undefined
            ? ''
            : `${String(total)}${page.data?.more === true ? '+' : ''} run${total === 1 ? '' : 's'}`}
          <span className="live" title="Live updates">
            ● live
          </span>
        </span>
      </header>
      <RunFiltersBar filters={filters} onChange={onFilters} />
      <div className="table-wrap">
        <table className="table" data-testid="runs-table">
          <thead>
            <tr>
              <th aria-label="Status" />
              <th>Run</th>
              <th>Agent</th>
              <th>Owner</th>
              <th className="num">Turns</th>
              <th className="num">Tools</th>
              <th className="num">Tokens in / out</th>
              <th className="num">Cost</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((run) => (
              <RunRow key={run.id} run={run} now={now} />
            ))}
          </tbody>
        </table>
        {rows.length === 0 && !page.loading && (
          <p className="empty" data-testid="runs-empty">
            No runs{unfiltered ? ' yet' : ' match these filters'}.
          </p>
        )}
      </div>
      <footer className="pager">
        <button
          type="button"
          data-testid="page-prev"
          disabled={offset === 0}
          onClick={() => {
            setOffset(Math.max(0, offset - LIMIT));
          }}
        >
          ← Newer
        </button>
        <span className="muted">
          {rows.length === 0 ? '' : `${offset + 1}–${offset + rows.length}`}
        </span>
        <button
          type="button"
          data-testid="page-next"
          disabled={page.data?.nextOffset === undefined}
          onClick={() => {
            if (page.data?.nextOffset !== undefined) setOffset(page.data.nextOffset);
          }}
        >
          Older →
        </button>
      </footer>
    </section>
  );
}
