/**
 * Middleware at every door (issue 30): the door matrix's scenarios (test/stores/door-scenarios.ts)
 * run through `run`, `runStream`, `resume` and `resumeStream` (by stored run id, and from
 * history), on a run store, with a model and a tool middleware recording what they saw. At every
 * door the middleware sees every model call the model answers — with the call's scope naming the
 * run being continued — and every tool execution, approved re-runs included, and the run ends as
 * it does without middleware.
 */
import type { Message, Middleware, Result } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { Recorder, SCENARIOS, scenarioAgent } from './support/door-scenarios';
import type { Decisions, Scenario, ScenarioAgent } from './support/door-scenarios';

interface Seen {
  readonly models: { runId?: string; agent: string; owner?: string; turn: number }[];
  readonly tools: { callId: string; approved: boolean; runId?: string }[];
}

function recording(): { middleware: Middleware; seen: Seen } {
  const seen: Seen = { models: [], tools: [] };
  const middleware: Middleware = {
    generate: (call, next) => {
      const scope = call.options?.scope;
      if (scope === undefined) throw new Error('a model call without its scope');
      seen.models.push({
        agent: scope.agent,
        turn: scope.turn,
        ...(scope.runId !== undefined && { runId: scope.runId }),
        ...(scope.owner !== undefined && { owner: scope.owner }),
      });
      return next(call.request);
    },
    tool: (call, next) => {
      seen.tools.push({
        callId: call.callId,
        approved: call.ctx.approved,
        ...(call.scope.runId !== undefined && { runId: call.scope.runId }),
      });
      return next(call.args);
    },
  };
  return { middleware, seen };
}

async function drain(
  stream: AsyncIterable<unknown> & { result: Promise<Result<string>> },
): Promise<Result<string>> {
  for await (const delta of stream) expect(delta).toBeDefined();
  return stream.result;
}

type Door = (agent: ScenarioAgent) => Promise<Result<string>>;
type ResumeDoor = (
  agent: ScenarioAgent,
  paused: Result<string>,
  decisions: Decisions,
) => Promise<Result<string>>;

const STARTS: Record<string, Door> = {
  run: (agent) => agent.run('go', { owner: 'alice' }),
  runStream: (agent) => drain(agent.runStream('go', { owner: 'alice' })),
};

const byId = (paused: Result<string>): string => paused.runId ?? '';
const history = (paused: Result<string>): readonly Message[] => paused.messages;

const RESUMES: Record<string, ResumeDoor> = {
  'resume(runId)': (agent, paused, decisions) => agent.resume(byId(paused), decisions),
  'resumeStream(runId)': (agent, paused, decisions) =>
    drain(agent.resumeStream(byId(paused), decisions)),
  'resume(history)': (agent, paused, decisions) => agent.resume(history(paused), decisions),
};

const NO_PAUSE = '(no pause)';

const CASES: (readonly [string, string, string, Scenario])[] = SCENARIOS.flatMap((scenario) =>
  Object.keys(STARTS).flatMap((start) =>
    scenario.decisions === undefined
      ? [[scenario.name, start, NO_PAUSE, scenario] as const]
      : Object.keys(RESUMES).map((resume) => [scenario.name, start, resume, scenario] as const),
  ),
);

test.each(CASES)(
  '%s via %s then %s: middleware sees every model call and tool execution, with the scope',
  async (_name: string, start: string, resume: string, scenario: Scenario) => {
    const proc = new Recorder();
    const bare = new Recorder();
    const { middleware, seen } = recording();
    const store = memoryStore();
    const agent = scenarioAgent(scenario, proc, { name: 'door', store, middleware: [middleware] });
    const plain = scenarioAgent(scenario, bare, { name: 'door', store: memoryStore() });

    const first = await (STARTS[start] as Door)(agent);
    const plainFirst = await (STARTS[start] as Door)(plain);
    let final = first;
    let plainFinal = plainFirst;
    if (resume !== NO_PAUSE && scenario.decisions !== undefined) {
      final = await (RESUMES[resume] as ResumeDoor)(agent, first, scenario.decisions);
      plainFinal = await (RESUMES[resume] as ResumeDoor)(plain, plainFirst, scenario.decisions);
    }

    // The run is the one it is without middleware: same answers, same tool effects.
    expect(final.output).toBe(plainFinal.output);
    expect(proc.effects.sort()).toEqual(bare.effects.sort());
    // Every model call went through the middleware, each with the scope of its run.
    expect(seen.models).toHaveLength(proc.requests.length);
    // Resuming from history starts a new stored run; by id continues the paused one.
    const runIds = new Set(seen.models.map((m) => m.runId));
    expect(runIds.has(first.runId)).toBe(true);
    if (resume === NO_PAUSE || resume.endsWith('(runId)'))
      expect([...runIds]).toEqual([first.runId]);
    else expect(runIds).toEqual(new Set([first.runId, final.runId]));
    expect(seen.models.every((m) => m.agent === 'door')).toBe(true);
    expect(
      seen.models.filter((m) => m.runId === first.runId).every((m) => m.owner === 'alice'),
    ).toBe(true);
    // Every execution went through the tool middleware: approved re-runs with ctx.approved.
    // (A deferring tool runs too: its effect is `<id>?`.)
    expect(seen.tools).toHaveLength(proc.effects.length);
    expect(
      seen.tools
        .filter((t) => t.approved)
        .map((t) => `${t.callId}+`)
        .sort(),
    ).toEqual(proc.effects.filter((e) => e.endsWith('+')).sort());
  },
);
