/**
 * The crash cases, for any store: a child process running the scenario is SIGKILLed mid-model
 * call, mid-batch (a1 done, a2 running), inside the write-ahead checkpoint of c1, and inside the
 * final transaction; a fresh process resumes. Every completed tool's side effect happens exactly
 * once, no committed turn is asked again, and the final history pairs every call with one result.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConversation, loadRun } from 'golem';
import type { RunStore } from 'golem';
import type { CrashConfig, KillPoint } from './crash-child';
import { crashAndResume } from './crash-harness';
import { resultsPerCall, transcript } from './scenario';

/** A fresh store location for the children, and a store on it for the parent's checks. */
export type CrashStoreFactory = (dir: string) => Promise<{
  store: CrashConfig['store'];
  open: () => RunStore;
  cleanup: () => Promise<void>;
}>;

const FINAL = [
  'user: go',
  'assistant[a1,a2]',
  'tool(a1): did A',
  'tool(a2): did B',
  'assistant[c1]',
  'tool(c1): did C',
  'assistant: done',
];

const CASES: [KillPoint, string, { start: number[]; resume: number[]; paused: string[] }][] = [
  [
    'model-2',
    'mid-model-call: turn 2 is asked again, turn 1 and its tools are not',
    { start: [0, 2], resume: [2, 3], paused: [] },
  ],
  [
    'tool-a2',
    'mid-batch: a1 stays done, a2 (running, outcome unknown) waits for approval',
    { start: [0], resume: [2, 3], paused: ['a2'] },
  ],
  [
    'write-c1',
    'inside the write-ahead checkpoint of c1: c1 never started, so it runs once',
    { start: [0, 2], resume: [2, 3], paused: [] },
  ],
  [
    'finish',
    'inside the final transaction: rolled back, the final answer is decoded again without a model call',
    { start: [0, 2, 3], resume: [], paused: [] },
  ],
];

export function crashCases(name: string, factory: CrashStoreFactory): void {
  describe(`${name}: a killed process resumes in another`, () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'golem-crash-'));
    });
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    test.each(CASES)('SIGKILL %s — %s', async (kill, _what, expected) => {
      const { store, open, cleanup } = await factory(dir);
      try {
        const effects = join(dir, 'effects.txt');
        const calls = join(dir, 'calls.txt');
        const {
          resumed,
          effects: done,
          calls: asked,
        } = await crashAndResume({ store, effects, calls }, kill);
        expect(done.sort()).toEqual(['a1', 'a2', 'c1']); // each side effect exactly once
        expect(asked).toEqual({ start: expected.start, resume: expected.resume });
        expect(resumed.paused).toEqual(expected.paused);
        expect(resumed.output).toBe('done');
        expect(transcript(resumed.messages)).toEqual(FINAL);
        expect(resultsPerCall(resumed.messages)).toEqual({ a1: 1, a2: 1, c1: 1 });
        const check = open();
        try {
          expect(await loadRun(check, 'crash')).toMatchObject({
            status: 'completed',
            agent: 'crash',
            lease: undefined,
          });
          expect(transcript((await loadConversation(check, 'crash-chat'))?.messages ?? [])).toEqual(
            FINAL,
          );
        } finally {
          await check.close();
        }
      } finally {
        await cleanup();
      }
    });
  });
}
