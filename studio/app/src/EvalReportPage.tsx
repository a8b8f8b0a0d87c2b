import type { CaseReportJson, ExperimentReportJson } from './eval-types';
import { count, duration, percent, prettyJson } from './format';
import { useApi } from './use-api';

function CaseRow({ row }: { row: CaseReportJson }) {
  const first = row.runs[0];
  const passed = row.passRate === 1;
  return (
    <tr data-testid="eval-case-row" data-case={row.name} data-pass={passed}>
      <td>
        <span className={`dot ${passed ? 'status-completed' : 'status-failed'}`} />
      </td>
      <td className="mono">{row.name}</td>
      <td className="num">{percent(row.passRate)}</td>
      <td className="num mono">
        {row.meanScore.toFixed(3)}
        {row.runs.length > 1 && <span className="muted"> ±{row.scoreStdDev.toFixed(2)}</span>}
      </td>
      <td>
        {first?.scores.map((score) => (
          <span
            key={score.name}
            className={`tag ${score.pass ? 'ok' : 'danger'}`}
            title={score.error ?? score.reason ?? ''}
          >
            {score.name} {score.score.toFixed(2)}
          </span>
        ))}
      </td>
      <td>
        {first?.error !== undefined ? (
          <span className="danger-text small">
            {first.error.name}
            {first.error.stage !== undefined && ` (${first.error.stage})`}: {first.error.message}
          </span>
        ) : (
          <pre className="code clip">{prettyJson(first?.output)}</pre>
        )}
      </td>
    </tr>
  );
}

/** `#/evals/:file`: one report: summary, evaluators, cases with scores. */
export function EvalReportPage({ file }: { file: string }) {
  const report = useApi<ExperimentReportJson>(`api/evals/${encodeURIComponent(file)}`);
  const data = report.data;
  return (
    <section className="page">
      <a href="#/evals" className="muted small">
        ← Evals
      </a>
      {data === undefined ? (
        <p className="empty">{report.error ?? 'Loading…'}</p>
      ) : (
        <>
          <header className="page-head">
            <h1>{data.name}</h1>
            <span className="muted">
              {data.dataset} · {new Date(data.startedAt).toLocaleString()} ·{' '}
              {duration(data.durationMs)}
            </span>
          </header>
          <dl className="facts">
            <div className="fact">
              <dt>pass rate</dt>
              <dd className="big">{percent(data.summary.passRate)}</dd>
            </div>
            <div className="fact">
              <dt>mean score</dt>
              <dd className="big">{data.summary.meanScore.toFixed(3)}</dd>
            </div>
            <div className="fact">
              <dt>runs</dt>
              <dd>
                {data.summary.passed} passed · {data.summary.failed} failed
                {data.summary.errored > 0 && ` (${data.summary.errored} errored)`}
              </dd>
            </div>
            <div className="fact">
              <dt>latency p50 / p90</dt>
              <dd>
                {duration(data.summary.latency.p50)} / {duration(data.summary.latency.p90)}
              </dd>
            </div>
            <div className="fact">
              <dt>tokens in / out</dt>
              <dd className="mono">
                {count(data.summary.usage.inputTokens)} / {count(data.summary.usage.outputTokens)}
              </dd>
            </div>
            {data.summary.cost !== undefined && (
              <div className="fact">
                <dt>cost</dt>
                <dd className="mono">${data.summary.cost.toFixed(4)}</dd>
              </div>
            )}
          </dl>
          {data.summary.evaluators.length > 0 && (
            <section className="panel">
              <header className="panel-head">
                <h2>Evaluators</h2>
              </header>
              <table className="table">
                <thead>
                  <tr>
                    <th>Evaluator</th>
                    <th className="num">Runs</th>
                    <th className="num">Pass rate</th>
                    <th className="num">Mean score</th>
                    <th className="num">Errors</th>
                  </tr>
                </thead>
                <tbody>
                  {data.summary.evaluators.map((row) => (
                    <tr key={row.name} data-testid="eval-evaluator-row">
                      <td className="mono">{row.name}</td>
                      <td className="num">{row.count}</td>
                      <td className="num">{percent(row.passRate)}</td>
                      <td className="num mono">{row.meanScore.toFixed(3)}</td>
                      <td className="num">{row.errors}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
          <section className="panel">
            <header className="panel-head">
              <h2>Cases</h2>
              <span className="muted small">
                {data.cases.length} case{data.cases.length === 1 ? '' : 's'} × {data.repeat}
              </span>
            </header>
            <table className="table">
              <thead>
                <tr>
                  <th aria-label="Pass" />
                  <th>Case</th>
                  <th className="num">Pass rate</th>
                  <th className="num">Score</th>
                  <th>Evaluators</th>
                  <th>Output (first run)</th>
                </tr>
              </thead>
              <tbody>
                {data.cases.map((row) => (
                  <CaseRow key={row.name} row={row} />
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
    </section>
  );
}
