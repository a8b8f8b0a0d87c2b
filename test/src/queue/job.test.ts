/** Job payloads: untrusted input from Redis, validated by every worker before it acts on one. */
import { JOB_VERSION, QueueError } from 'golem/queue';
import { DEFAULT_LIMITS, jobIdOf, parseJob, runIdOfJobId } from '../../../src/queue/job';

const job = {
  v: JOB_VERSION,
  kind: 'start',
  runId: 'r-1',
  agent: 'support',
  prompt: 'hi',
  options: {},
  enqueuedAt: 0,
};

function refusal(data: unknown, limits = DEFAULT_LIMITS): QueueError {
  try {
    parseJob(data, limits);
  } catch (error) {
    if (QueueError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

test('a valid payload is accepted as it is', () => {
  expect(parseJob(job, DEFAULT_LIMITS)).toEqual(job);
});

test.each([
  [{ ...job, v: 0 }, '0', 'an older'],
  [{ ...job, v: 2 }, '2', 'a newer'],
])('a payload of another version is refused, naming it (%#)', (data, version, by) => {
  const error = refusal(data);
  expect(error.reason).toBe('unsupported-version');
  expect(error.runId).toBe('r-1');
  expect(error.message).toContain(`job payload version ${version} is not supported`);
  expect(error.message).toContain(`written by ${by} golem/queue`);
});

test.each([
  [{ ...job, v: undefined }, 'missing'],
  [{ ...job, v: '1' }, '"1"'],
  [{ ...job, v: 1.5 }, '1.5'],
])('a payload without a version is invalid-job, not unsupported-version (%#)', (data, v) => {
  const error = refusal(data);
  expect([error.reason, error.runId, error.message]).toEqual([
    'invalid-job',
    'r-1',
    `job payload is invalid: it has no version (v is ${v}): it was not written by golem/queue`,
  ]);
});

test.each(['r-1', 'a.b.7', 'x:y%z', '%3A', 'start.9'])('a job id names its run: %s', (runId) => {
  expect(runIdOfJobId(jobIdOf('start', runId))).toBe(runId);
  expect(runIdOfJobId(jobIdOf('resume', runId, 12))).toBe(runId);
  expect(runIdOfJobId(jobIdOf('continue', runId, 3))).toBe(runId);
});

test.each(['garbage', 'start.', 'resume.r-1', 'start.has space'])(
  'a job id of no golem run names none: %s',
  (jobId) => {
    expect(runIdOfJobId(jobId)).toBeUndefined();
  },
);

test.each([
  [null, 'not an object'],
  [{ ...job, runId: 'has space' }, 'runId must be 1–200 printable ASCII characters'],
  [{ ...job, kind: 'delete' }, 'kind must be start, resume or continue'],
  [{ ...job, agent: '' }, 'agent must be a name of 1–200 characters'],
  [{ ...job, prompt: 7 }, 'a start job needs a prompt string'],
  [
    {
      ...job,
      kind: 'resume',
      results: { approvals: { c: { approved: 'yes' } } },
      pausedVersion: 3,
    },
    'every approval must be { approved: boolean, reason?: string }',
  ],
  [{ ...job, kind: 'resume', results: {} }, 'a resume job needs pausedVersion'],
  [{ ...job, options: { timeout: -1 } }, 'options.timeout must be a number ≥ 1'],
  [{ ...job, options: { stream: 'yes' } }, 'options.stream must be a boolean'],
  [{ ...job, traceContext: 'x' }, 'traceContext must be an object of strings'],
])('a damaged payload is refused: %o', (data, problem) => {
  const error = refusal(data);
  expect(error.reason).toBe('invalid-job');
  expect(error.message).toBe(`job payload is invalid: ${problem}`);
});

test('sizes are checked by the worker too: the job, the prompt, the deps', () => {
  const limits = { promptBytes: 10, depsBytes: 10, jobBytes: 300 };
  expect(refusal({ ...job, prompt: 'x'.repeat(400) }, limits).reason).toBe('too-large');
  expect(refusal({ ...job, prompt: 'x'.repeat(11) }, limits).message).toMatch(
    /^prompt of run "r-1" is 11 bytes, over the limit of 10/,
  );
  expect(refusal({ ...job, deps: { a: 'bbbbbbbb' } }, limits).reason).toBe('too-large');
  expect(refusal({ ...job, deps: { a: [1, Number.NaN] } }).reason).toBe('invalid-deps');
});

test('job ids are unique per segment and never hold ":" (BullMQ refuses it)', () => {
  expect(jobIdOf('start', 'a:b%c')).toBe('start.a%3Ab%25c');
  expect(jobIdOf('resume', 'r', 4)).toBe('resume.r.4');
  expect(jobIdOf('continue', 'r', 4)).not.toBe(jobIdOf('resume', 'r', 4));
});
