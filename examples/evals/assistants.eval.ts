/**
 * The experiment file `golem eval` runs:
 *
 *   npx golem eval examples/evals/assistants.eval.ts --replay
 *
 * runs both experiments on the checked-in cassettes (no provider call), prints their reports and
 * exits 1 when one is below its thresholds (the candidate is: its brief weather answers drop the
 * temperature). Add `--export candidate --baseline baseline.json` to gate on regressions.
 */
import { assistantExperiment } from './experiments';

export const baseline = assistantExperiment('baseline');
export const candidate = assistantExperiment('candidate');
