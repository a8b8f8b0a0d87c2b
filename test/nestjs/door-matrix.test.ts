/**
 * The door matrix through NestJS (issue 27): every door scenario of
 * test/stores/support/door-scenarios.ts goes through a real Nest application over loopback HTTP —
 * a decorated agent built by `GolemModule.forFeature` on the module's run store (a SQLite file,
 * `GolemModule.forRoot({ store })`), started and resumed by id through a controller, as JSON
 * (`run`, `resume`) or as server-sent events (`sseFromRun` over `runStream`, `resumeStream`), in
 * every combination. Each gives what the in-process doors give: the same pause and final
 * transcript, returned and stored, the same counters and each tool effect once. The SSE stream is
 * the in-process stream 1:1 and in order, as `sseFromRun` documents — one `delta` per fragment the
 * in-process stream delivered, then one `result` with the in-process result's fields — and the
 * run events the app observes are the in-process run's, in the documented order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Body,
  Controller,
  Injectable,
  Module,
  Post,
  Query,
  Sse,
  type INestApplication,
  type MessageEvent,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Observable } from 'rxjs';
import { loadRun } from 'golem';
import type { DeferredResults, Delta, Message, PendingToolCalls, RunObserver, Usage } from 'golem';
import { Agent, PAUSABLE_TYPE } from 'golem/decorators';
import {
  GolemModule,
  InjectAgent,
  getModelToken,
  sseFromRun,
  type InjectedAgent,
} from 'golem/nestjs';
import { sqliteStore } from 'golem/stores/sqlite';
import { parseEventStream } from '../../examples/nestjs-app/sse-client';
import {
  CALLS_USAGE,
  documentedEvents,
  DONE_USAGE,
  eventLabel,
  expectedRequests,
  pendingPairs,
  Recorder,
  referenceRun,
  scenarioModel,
  SCENARIOS,
  scenarioTools,
  sum,
} from '../stores/support/door-scenarios';
import type { ReferenceRun, Scenario, ScenarioProcess } from '../stores/support/door-scenarios';
import { resultsPerCall, transcript } from '../stores/support/scenario';

// ---------------------------------------------------------------------------------------------
// The application: a decorated agent whose tools come from the feature module (they report to
// the process the test gives it), and a controller serving its runs.

@Agent({ model: 'default', deferredTools: true, parallelToolCalls: true })
class DoorAgent {
  declare readonly [PAUSABLE_TYPE]: true;
}

/** The process the scenario's tools and model report to: each test provides its own. */
const PROCESS = Symbol('PROCESS');

/** The run events the app observed, one list per request. */
@Injectable()
class EventLog {
  readonly segments: string[][] = [];

  /** An observer for one request's run. */
  segment(): RunObserver {
    const log: string[] = [];
    this.segments.push(log);
    return (event) => log.push(eventLabel(event));
  }
}

/** What both the JSON routes and the SSE `result` event answer: the run's result, messages too. */
interface Answer {
  readonly output: string | null;
  readonly pending: PendingToolCalls | null;
  readonly usage: Usage;
  readonly requests: number;
  readonly toolCalls: number;
  readonly runId: string | null;
  readonly messages: readonly Message[];
}

type DoorResult = Awaited<ReturnType<InjectedAgent<typeof DoorAgent>['run']>>;

/** The SSE helper's default `result` data (`output`, `pending`, counters), with the run's id and messages. */
function answer(result: DoorResult): Answer {
  return {
    output: result.pending === undefined ? result.output : null,
    pending: result.pending ?? null,
    usage: result.usage,
    requests: result.requests,
    toolCalls: result.toolCalls,
    runId: result.runId ?? null,
    messages: result.messages,
  };
}

@Controller('door')
class DoorController {
  constructor(
    @InjectAgent(DoorAgent) private readonly agent: InjectedAgent<typeof DoorAgent>,
    private readonly log: EventLog,
  ) {}

  @Post('start')
  async start(@Body() body: { runId: string }): Promise<Answer> {
    return answer(await this.agent.run('go', { runId: body.runId, observer: this.log.segment() }));
  }

  @Post('decide')
  async decide(@Body() body: { runId: string; decisions: DeferredResults }): Promise<Answer> {
    const observer = this.log.segment();
    return answer(await this.agent.resume(body.runId, body.decisions, { observer }));
  }

  @Sse('start')
  startStream(@Query('runId') runId: string): Observable<MessageEvent> {
    const observer = this.log.segment();
    return sseFromRun((signal) => this.agent.runStream('go', { runId, signal, observer }), {
      result: answer,
    });
  }

  @Sse('decide')
  decideStream(
    @Query('runId') runId: string,
    @Query('decisions') decisions: string,
  ): Observable<MessageEvent> {
    const observer = this.log.segment();
    const results = JSON.parse(decisions) as DeferredResults;
    return sseFromRun((signal) => this.agent.resumeStream(runId, results, { signal, observer }), {
      result: answer,
    });
  }
}

@Module({
  imports: [
    GolemModule.forFeature([
      {
        agent: DoorAgent,
        tools: { inject: [PROCESS], useFactory: (proc: ScenarioProcess) => scenarioTools(proc) },
      },
    ]),
  ],
  controllers: [DoorController],
  providers: [EventLog, { provide: PROCESS, useValue: new Recorder() }],
})
class DoorModule {}

// ---------------------------------------------------------------------------------------------
// The suite: one SQLite file (the module's run store) for every case.

const dir = mkdtempSync(join(tmpdir(), 'golem-nest-doors-'));
const store = sqliteStore({ path: join(dir, 'runs.db') });
let app: INestApplication | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The app for `scenario`, its tools and model reporting to `proc`; its base URL. */
async function start(scenario: Scenario, proc: Recorder): Promise<string> {
  const moduleRef = await Test.createTestingModule({
    imports: [GolemModule.forRoot({ defaultModel: 'test', store }), DoorModule],
  })
    .overrideProvider(getModelToken('default'))
    .useValue(scenarioModel(scenario, proc))
    .overrideProvider(PROCESS)
    .useValue(proc)
    .compile();
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest's options are plain objects
  app = moduleRef.createNestApplication({ logger: false, forceCloseConnections: true });
  await app.listen(0, '127.0.0.1');
  return `${await app.getUrl()}/door`;
}

/** What one request gave: the answer, and for SSE the events' types and fragments. */
interface Reply {
  readonly answer: Answer;
  /** The SSE events' types in order; `undefined` for JSON. */
  readonly events?: string[];
  readonly deltas?: Delta[];
}

async function json(url: string, body: unknown): Promise<Reply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return { answer: (await response.json()) as Answer };
}

async function sse(url: string, query: Record<string, string>): Promise<Reply> {
  const response = await fetch(`${url}?${new URLSearchParams(query).toString()}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const events = parseEventStream(await response.text());
  const last = events.at(-1);
  if (last?.event !== 'result') throw new Error(`the stream ended with ${JSON.stringify(last)}`);
  return {
    answer: last.data as Answer,
    events: events.map((e) => e.event),
    deltas: events.filter((e) => e.event === 'delta').map((e) => e.data as Delta),
  };
}

type Door = 'json' | 'sse';

const STARTS: Record<Door, (base: string, runId: string) => Promise<Reply>> = {
  json: (base, runId) => json(`${base}/start`, { runId }),
  sse: (base, runId) => sse(`${base}/start`, { runId }),
};

const DECIDES: Record<
  Door,
  (base: string, runId: string, decisions: DeferredResults) => Promise<Reply>
> = {
  json: (base, runId, decisions) => json(`${base}/decide`, { runId, decisions }),
  sse: (base, runId, decisions) =>
    sse(`${base}/decide`, { runId, decisions: JSON.stringify(decisions) }),
};

const DOORS: Door[] = ['json', 'sse'];

/** A reply is the in-process segment's: the result's fields, and for SSE its stream 1:1. */
function expectSegment(reply: Reply, reference: ReferenceRun, segment: number): void {
  const expected =
    segment === 0 && reference.paused !== undefined ? reference.paused : reference.final;
  const same = { ...answer(expected), runId: reply.answer.runId }; // each run has its own id
  expect(reply.answer).toEqual(JSON.parse(JSON.stringify(same)));
  if (reply.events === undefined) return;
  const deltas = reference.deltas[segment] ?? [];
  expect(reply.events).toEqual([...deltas.map(() => 'delta'), 'result']);
  expect(reply.deltas).toEqual(deltas);
}

/** A case: the scenario's name, the doors' name, the scenario, its start's door and its resume's. */
type Case = readonly [string, string, Scenario, Door, Door | undefined];

const CASES: Case[] = SCENARIOS.flatMap((scenario) =>
  DOORS.flatMap((first): Case[] =>
    scenario.decisions === undefined
      ? [[scenario.name, first, scenario, first, undefined]]
      : DOORS.map((then): Case => [scenario.name, `${first} → ${then}`, scenario, first, then]),
  ),
);

let cases = 0;

test.each(CASES)('%s — %s', async (_name, _door, scenario, first, then) => {
  const proc = new Recorder();
  const base = await start(scenario, proc);
  const runId = `nest-door-${++cases}`;
  const streamed = [first === 'sse', then === 'sse'];
  // The in-process run with the same streaming per segment (the start's, then the resume's).
  const references = [await referenceRun(scenario, streamed[0] ?? false)];
  if (then !== undefined) references.push(await referenceRun(scenario, streamed[1] ?? false));
  const [before = 0, after = 0] = scenario.executions;

  const started = await STARTS[first](base, runId);
  expect(started.answer.runId).toBe(runId);
  let final = started;
  if (then !== undefined && scenario.decisions !== undefined) {
    // The pause: returned, stored, and as the in-process door paused.
    expect(pendingPairs(started.answer.pending ?? undefined)).toEqual(scenario.pause?.pending);
    expect(transcript(started.answer.messages)).toEqual(scenario.pause?.transcript);
    expectSegment(started, references[0] as ReferenceRun, 0);
    expect([started.answer.requests, started.answer.toolCalls, started.answer.usage]).toEqual([
      1,
      before,
      CALLS_USAGE,
    ]);
    const stored = await loadRun(store, runId);
    expect(stored.status).toBe('paused');
    expect(pendingPairs(stored.pending)).toEqual(scenario.pause?.pending);
    expect(transcript(stored.messages)).toEqual(scenario.pause?.transcript);
    final = await DECIDES[then](base, runId, scenario.decisions);
  }

  // The end: returned, stored, and as the in-process door ended.
  const last = references.at(-1) as ReferenceRun;
  expect(final.answer.output).toBe('done');
  expect(final.answer.pending).toBeNull();
  expect(final.answer.runId).toBe(runId);
  expect(transcript(final.answer.messages)).toEqual(scenario.final);
  expect(Object.values(resultsPerCall(final.answer.messages)).every((n) => n === 1)).toBe(true);
  expectSegment(final, last, then === undefined ? 0 : 1);
  const whole = [2, before + after, sum(CALLS_USAGE, DONE_USAGE)];
  expect([final.answer.requests, final.answer.toolCalls, final.answer.usage]).toEqual(whole);
  const record = await loadRun(store, runId);
  expect(record.status).toBe('completed');
  expect(record.output).toBe('done');
  expect(transcript(record.messages)).toEqual(scenario.final);
  expect([record.requests, record.toolCalls, record.usage]).toEqual(whole);

  // Each effect once; the model asked each turn once, on the uninterrupted history.
  expect([...proc.effects].sort()).toEqual(scenario.effects);
  expect(proc.requests).toEqual(expectedRequests(scenario.final));

  // The in-process runs keep the documented order (a streamed turn's fragments inside it), and
  // the run events the app observed, request by request, are theirs.
  const inProcess = references.map((r, i) => r.segments[i] ?? []);
  expect(inProcess).toEqual(
    references.map((_, i) => documentedEvents(scenario, streamed[i] ?? false)[i]),
  );
  const observed = app?.get(EventLog).segments;
  expect(observed).toEqual(inProcess.map((s) => s.filter((line) => !line.startsWith('delta '))));
});
