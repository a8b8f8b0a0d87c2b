/**
 * Evals end to end, offline: a YAML dataset of 20 cases for the weather and booking assistants,
 * two prompt versions run on their recorded traffic (cassettes: no provider call, no tool side
 * effect), an LLM judge on a scripted model, the reports, a baseline/candidate comparison with
 * its regressions, the CI gate, and the self-contained HTML page.
 *
 * With GOLEM_EVAL_CASSETTES=record it records the cassettes again (on OpenAI with
 * OPENAI_API_KEY, else on the simulated model).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkThresholds,
  compareReports,
  formatComparison,
  formatReport,
  readReport,
  writeReport,
} from 'golem/evals';
import { assistantExperiment } from './experiments';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const mode = process.env.GOLEM_EVAL_CASSETTES === 'record' ? 'record' : 'replay';
  const baseline = await assistantExperiment('baseline', mode).run();
  const candidate = await assistantExperiment('candidate', mode).run();

  log(formatReport(baseline, { width: 100, timing: false }));
  log('');
  log(formatReport(candidate, { width: 100, timing: false }));
  log('');

  const comparison = compareReports(baseline, candidate);
  log(formatComparison(comparison, { width: 100 }));
  log('');

  // The CI gate: what `golem eval --baseline baseline.json` checks.
  const gate = checkThresholds(candidate, { passRate: 0.6, maxRegressions: 0 }, comparison);
  log(`gate: ${gate.ok ? 'passed' : 'failed'}`);
  for (const failure of gate.failures) log(`  - ${failure}`);

  // The report as JSON (kept as the next run's baseline) and as one HTML page.
  const dir = mkdtempSync(join(tmpdir(), 'golem-evals-'));
  try {
    const json = join(dir, 'candidate.json');
    const html = join(dir, 'candidate.html');
    await writeReport(candidate, { json, html, comparison });
    const reread = await readReport(json);
    const page = readFileSync(html, 'utf8');
    log(
      `wrote candidate.json (${String(reread.cases.length)} cases) and candidate.html ` +
        `(self-contained: ${String(!/(src|href)="https?:/.test(page))})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
