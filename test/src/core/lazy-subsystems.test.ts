/**
 * `require('golem')` loads golem's public surface and what building an agent needs; the subsystems
 * a plain run does not use load on first use (issue 13's import cost). A real process
 * (lazy-probe.ts) reports its require cache after each step; a subsystem that an eager import
 * drags back in fails here, whatever the timings of the machine.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The modules behind each lazy boundary, as src/core paths without extension. */
const RUN_LOOP = [
  'engine/run',
  'engine/loop',
  'engine/model-turn',
  'engine/tool-batch',
  'engine/resolve',
];
const STREAMS = [
  'agent/stream',
  'engine/run-stream-feed',
  'engine/stream-events',
  'engine/partial-output',
];
const DURABLE_RUNS = [
  'agent/stored-run',
  'durable/durable-run',
  'durable/recorder',
  'durable/store-ops',
];
const RESUME = ['engine/resume', 'agent/resume-stream'];
const SUBSYSTEMS = [...RUN_LOOP, ...STREAMS, ...DURABLE_RUNS, ...RESUME];

/** The durable modules golem loads on import: those defining its public durable values. */
const PUBLIC_DURABLE = [
  'durable/access', // the owner and agent checks of loadRun, loadConversation, listRuns
  'durable/compaction-column', // what records decode a stored run's compactions with
  'durable/corrupt-row', // the corrupt StoreError records raise
  'durable/interrupted-call', // INTERRUPTED_CALL_REASON
  'durable/queries', // loadRun, loadConversation, listRuns
  'durable/records', // what queries decode stored rows with
  'durable/store-error', // StoreError
  'durable/thread-fields', // what records decode a conversation's title and metadata with
];

interface Step {
  step: string;
  loaded: string[];
  [observed: string]: unknown;
}

let steps: Map<string, Step>;

beforeAll(() => {
  const root = join(__dirname, '..', '..', '..');
  const out = execFileSync(
    process.execPath,
    ['-r', '@swc-node/register', join(__dirname, 'lazy-probe.ts')],
    { cwd: root, encoding: 'utf8' },
  );
  const lines = out.trim().split('\n');
  steps = new Map(lines.map((line) => JSON.parse(line) as Step).map((s) => [s.step, s]));
}, 60_000);

function step(name: string): Step {
  const found = steps.get(name);
  if (found === undefined) throw new Error(`the probe did not report step ${name}`);
  return found;
}

const present = (name: string, modules: readonly string[]) =>
  modules.filter((m) => step(name).loaded.includes(m));

test('importing golem loads none of the subsystems, and only the public durable modules', () => {
  expect(step('import').loaded).toContain('index');
  expect(present('import', SUBSYSTEMS)).toEqual([]);
  const durable = step('import').loaded.filter((m) => m.startsWith('durable/'));
  expect(durable).toEqual(PUBLIC_DURABLE);
});

test('building an agent loads none of the subsystems', () => {
  expect(present('construct', SUBSYSTEMS)).toEqual([]);
});

test('a plain run loads the run loop, and nothing for streams, stores or resumes', () => {
  expect(step('run').output).toBe('done');
  expect(present('run', RUN_LOOP)).toEqual(RUN_LOOP);
  expect(present('run', [...STREAMS, ...DURABLE_RUNS, ...RESUME])).toEqual([]);
});

test('errors of the lazily loaded engine are the classes golem exports', () => {
  expect(step('failed run').runError).toBe(true);
  expect(step('guardrails').runError).toBe(true);
  expect(step('guardrails').guardrailError).toBe(true);
});

test('each subsystem loads when a run first uses it', () => {
  expect(step('stream').output).toBe('done');
  expect(present('stream', STREAMS)).toEqual(STREAMS);
  expect(present('stream', DURABLE_RUNS)).toEqual([]);
  expect(step('store').output).toBe('done');
  expect(present('store', DURABLE_RUNS)).toEqual(DURABLE_RUNS);
  expect(present('store', RESUME)).toEqual([]);
});
