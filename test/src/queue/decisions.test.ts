/** Decisions for a paused run are checked against its pending calls before anything is queued. */
import { INTERRUPTED_CALL_REASON } from 'golem';
import type { PendingToolCalls } from 'golem';
import { QueueError } from 'golem/queue';
import { checkDecisions } from '../../../src/queue/enqueue-input';

const pending: PendingToolCalls = {
  approvals: [{ callId: 'pay', toolName: 'transfer', args: '{}', reason: '' }],
  external: [{ callId: 'fx', toolName: 'rate', args: '{}', reason: '' }],
};

function problem(results: Parameters<typeof checkDecisions>[2]): string {
  try {
    checkDecisions('r', pending, results);
  } catch (error) {
    if (QueueError.isReason(error, 'invalid-decision'))
      return error.message.replace('decisions for run "r": ', '');
    throw error;
  }
  return 'accepted';
}

test('every pending call resolved once, by the right kind of decision, is accepted (records or maps)', () => {
  expect(
    checkDecisions('r', pending, {
      approvals: new Map([['pay', { approved: false, reason: 'too much' }]]),
      external: { fx: '1.08' },
    }),
  ).toEqual({
    approvals: { pay: { approved: false, reason: 'too much' } },
    external: { fx: '1.08' },
  });
});

test.each([
  [{ approvals: { pay: { approved: true } } }, 'every pending call needs a decision; missing fx'],
  [
    { approvals: { pay: { approved: true }, other: { approved: true } }, external: { fx: '1' } },
    'call "other" is not pending (pending: pay, fx)',
  ],
  [
    { approvals: { pay: { approved: true }, fx: { approved: true } } },
    'call "fx" waits for an external result',
  ],
  [
    { approvals: { pay: { approved: true } }, external: { pay: 'x', fx: '1' } },
    'call "pay" is resolved twice',
  ],
  [
    { approvals: { pay: { approved: 'yes' as unknown as boolean } }, external: { fx: '1' } },
    'approval of "pay" must be { approved: boolean, reason?: string }',
  ],
  [
    { approvals: { pay: { approved: true } }, external: { fx: 1 as unknown as string } },
    'the external result of "fx" must be text',
  ],
])('%o is refused', (results, message) => {
  expect(problem(results)).toBe(message);
});

test('a call interrupted by a crash is settled by an approval or by its result, once', () => {
  const interrupted: PendingToolCalls = {
    approvals: [
      { callId: 's2', toolName: 'step', args: '{}', reason: INTERRUPTED_CALL_REASON },
      { callId: 'pay', toolName: 'transfer', args: '{}', reason: '' },
    ],
    external: [],
  };
  const check = (results: Parameters<typeof checkDecisions>[2]) => () =>
    checkDecisions('r', interrupted, results);
  expect(
    check({ approvals: { pay: { approved: true } }, external: { s2: 'step 2 done' } })(),
  ).toEqual({ approvals: { pay: { approved: true } }, external: { s2: 'step 2 done' } });
  expect(check({ approvals: { pay: { approved: true }, s2: { approved: false } } })()).toEqual({
    approvals: { pay: { approved: true }, s2: { approved: false } },
  });
  // Still exactly once, and an approval call that was not interrupted still wants an approval.
  expect(
    check({
      approvals: { pay: { approved: true }, s2: { approved: true } },
      external: { s2: 'x' },
    }),
  ).toThrow('call "s2" is resolved twice');
  expect(check({ external: { pay: 'paid', s2: 'x' } })).toThrow('call "pay" waits for an approval');
});
