/**
 * Concurrent run starts on one new conversation (issue 25, item 2): exactly one run claims it, the
 * others get `conflict` before anything runs, the conversation holds exactly the messages of the
 * runs that completed, and no run is left holding it. Registered by the SQLite and PostgreSQL
 * suites: a store whose transactions do not lock rows that do not exist yet must still behave so.
 */
import { Agent, listRuns, loadConversation, StoreError } from 'golem';
import type { Message, ModelRequest, RunStore } from 'golem';
import { FunctionModel, textResponse } from 'golem/testing';
import { gate } from './scenario';

/** Builds a fresh, empty store; `cleanup` removes what it made. */
export type RaceStoreFactory = () => Promise<{ store: RunStore; cleanup: () => Promise<void> }>;

const ROUNDS = 20;

/** The prompt of a request: its last user message. */
function promptOf(request: ModelRequest): string {
  const users = request.messages.filter((m) => m.role === 'user');
  return users[users.length - 1]?.content ?? '';
}

/** The user/assistant pairs of `messages`, as `prompt => answer` lines. */
function pairs(messages: readonly Message[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i + 1 < messages.length; i += 2)
    lines.push(`${messages[i]?.content ?? ''} => ${messages[i + 1]?.content ?? ''}`);
  return lines;
}

/** Every outcome is a completion or a `conflict` StoreError; returns the completed prompts. */
function sortOutcomes(
  outcomes: readonly PromiseSettledResult<unknown>[],
  prompts: readonly string[],
): string[] {
  const completed: string[] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') completed.push(prompts[i] ?? '');
    // Anything but a conflict (a deadlock reported as `failed`, a hang) fails the test here.
    else expect(StoreError.is(outcome.reason) && outcome.reason.reason).toBe('conflict');
  });
  return completed;
}

/** What every round checks after its runs settled: the conversation, the run rows, a later run. */
async function checkAfter(
  store: RunStore,
  agent: Agent,
  conversation: string,
  completed: readonly string[],
): Promise<void> {
  const stored = await loadConversation(store, conversation);
  // Exactly the completed runs' turns, each once (in the order they completed).
  expect([...pairs(stored?.messages ?? [])].sort()).toEqual(
    completed.map((p) => `${p} => answer to ${p}`).sort(),
  );
  expect(stored?.messages).toHaveLength(completed.length * 2);
  expect(stored?.activeRunId).toBeUndefined();
  const runs = await listRuns(store, { conversationId: conversation });
  expect(runs.map((r) => r.status)).toEqual(completed.map(() => 'completed'));
  // Nothing holds the conversation: the next run on it starts and completes.
  const later = await agent.run('later', { conversation });
  expect(later.output).toBe('answer to later');
  const after = await loadConversation(store, conversation);
  expect(after?.messages).toHaveLength(completed.length * 2 + 2);
}

export function conversationRaceContract(name: string, factory: RaceStoreFactory): void {
  describe(`${name}: concurrent starts on a new conversation`, () => {
    let store: RunStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await factory());
      await store.migrate();
    });
    afterEach(async () => {
      await cleanup();
    });

    test('exactly one claims it, the others get conflict before their model is called, and its messages are kept', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const n = 2 + (round % 3);
        const conversation = `race-${round}`;
        const prompts = Array.from({ length: n }, (_, i) => `p${round}.${i}`);
        // The model answers only once every run has either reached it or settled: a run that
        // claimed the conversation cannot finish before the others tried to claim it.
        let reached = 0;
        let settled = 0;
        const everyone = gate();
        const check = () => {
          if (reached + settled === n) everyone.open();
        };
        const agent = new Agent({
          name: 'racer',
          store,
          model: new FunctionModel(async (request) => {
            const prompt = promptOf(request);
            if (prompt !== 'later') {
              reached++;
              check();
              await everyone.promise;
            }
            return textResponse(`answer to ${prompt}`);
          }),
        });
        const outcomes = await Promise.allSettled(
          prompts.map((prompt) =>
            agent.run(prompt, { conversation }).finally(() => {
              settled++;
              check();
            }),
          ),
        );
        const completed = sortOutcomes(outcomes, prompts);
        expect({ round, completed: completed.length, reached }).toEqual({
          round,
          completed: 1,
          reached: 1,
        });
        for (const outcome of outcomes)
          if (outcome.status === 'rejected')
            expect((outcome.reason as StoreError).conversationId).toBe(conversation);
        await checkAfter(store, agent, conversation, completed);
      }
    });

    test('runs that start and finish at once never fail, never lose a completed run, never stay running', async () => {
      const agent = new Agent({
        name: 'racer',
        store,
        model: new FunctionModel((request) => textResponse(`answer to ${promptOf(request)}`)),
      });
      for (let round = 0; round < ROUNDS; round++) {
        const n = 2 + (round % 3);
        const conversation = `free-${round}`;
        const prompts = Array.from({ length: n }, (_, i) => `q${round}.${i}`);
        const outcomes = await Promise.allSettled(
          prompts.map((prompt) => agent.run(prompt, { conversation })),
        );
        const completed = sortOutcomes(outcomes, prompts);
        expect(completed.length).toBeGreaterThanOrEqual(1);
        await checkAfter(store, agent, conversation, completed);
      }
    });
  });
}
