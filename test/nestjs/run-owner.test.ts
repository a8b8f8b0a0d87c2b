/**
 * The run owner through a real Nest app: `GolemModule.forRoot({ runOwner })` reads it from the
 * request, `@RunOwner()` hands it to the handler, the handler passes `{ owner }` to every run,
 * resume and read. Another owner's run is a 404 exactly like an unknown id, and nothing runs.
 */
import {
  Controller,
  Get,
  Module,
  Param,
  Post,
  Sse,
  type INestApplication,
  type MessageEvent,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { Observable } from 'rxjs';
import { listRuns, loadRun, type RunStore } from 'golem';
import { Agent, NoArgs, PAUSABLE_TYPE, Tool } from 'golem/decorators';
import {
  GolemExceptionFilter,
  GolemModule,
  GolemTestingModule,
  InjectAgent,
  InjectRunStore,
  RunOwner,
  sseFromRun,
  type InjectedAgent,
} from 'golem/nestjs';
import { memoryStore } from 'golem/stores/memory';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';

let payments = 0;

@Agent({ deferredTools: true })
class PaymentsAgent {
  declare readonly [PAUSABLE_TYPE]: true;
  @Tool({ description: 'Pays the invoice', approval: true })
  pay(_args: NoArgs): string {
    payments++;
    return 'paid';
  }
}

const approve = { approvals: { c1: { approved: true } } };

@Controller('payments')
class PaymentsController {
  constructor(
    @InjectAgent(PaymentsAgent) private readonly agent: InjectedAgent<typeof PaymentsAgent>,
    @InjectRunStore() private readonly store: RunStore,
  ) {}

  @Post()
  async start(@RunOwner() owner: string): Promise<{ runId: string | undefined }> {
    const result = await this.agent.run('pay the invoice', { owner });
    return { runId: result.runId };
  }

  @Get()
  async list(@RunOwner() owner: string): Promise<string[]> {
    return (await listRuns(this.store, { owner })).map((run) => run.id);
  }

  @Get(':runId')
  async show(@Param('runId') runId: string, @RunOwner() owner: string): Promise<string> {
    return (await loadRun(this.store, runId, { owner })).status;
  }

  @Post(':runId/approve')
  async approve(@Param('runId') runId: string, @RunOwner() owner: string): Promise<string> {
    return String((await this.agent.resume(runId, approve, { owner })).output);
  }

  @Post(':runId/continue')
  async continue(@Param('runId') runId: string, @RunOwner() owner: string): Promise<string> {
    const result = await this.agent.resumeRun(runId, { owner });
    return result.pending === undefined ? 'done' : 'pending';
  }

  @Sse(':runId/approve/stream')
  approveStream(
    @Param('runId') runId: string,
    @RunOwner() owner: string,
  ): Observable<MessageEvent> {
    return sseFromRun((signal) => this.agent.resumeStream(runId, approve, { owner, signal }));
  }
}

@Module({
  imports: [GolemModule.forFeature([PaymentsAgent])],
  controllers: [PaymentsController],
  providers: [{ provide: APP_FILTER, useClass: GolemExceptionFilter }],
})
class PaymentsModule {}

let app: INestApplication;
let base: string;
const store = memoryStore();

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GolemTestingModule.forRoot({
        defaultModel: new StreamFunctionModel((request) =>
          request.messages.some((m) => m.role === 'tool')
            ? textResponse('settled')
            : toolCallResponse([{ id: 'c1', name: 'pay' }]),
        ),
        store,
        runOwner: (request: { headers: Record<string, string | undefined> }) =>
          request.headers['x-user'],
      }),
      PaymentsModule,
    ],
  }).compile();
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest's options are plain objects
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  base = await app.getUrl();
});

afterAll(async () => {
  await app.close();
});

function call(path: string, user: string | undefined, method = 'POST'): Promise<Response> {
  return fetch(`${base}/payments${path}`, {
    method,
    headers: user === undefined ? {} : { 'x-user': user },
  });
}

async function startPaused(user: string): Promise<string> {
  const response = await call('', user);
  expect(response.status).toBe(201);
  const { runId } = (await response.json()) as { runId: string };
  expect((await loadRun(store, runId)).status).toBe('paused');
  return runId;
}

test("another owner's run is a 404 like an unknown id, on every route, and nothing runs", async () => {
  const runId = await startPaused('ada');
  const before = payments;
  for (const [path, method] of [
    ['', 'GET'],
    ['/approve', 'POST'],
    ['/continue', 'POST'],
  ] as const) {
    const unknown = await call(`/no-such-run${path}`, 'grace', method);
    expect(unknown.status).toBe(404);
    const unknownBody = (await unknown.json()) as { message: string };
    const response = await call(`/${runId}${path}`, 'grace', method);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: unknownBody.message.replace('no-such-run', runId),
    });
  }
  const stream = await (await call(`/${runId}/approve/stream`, 'grace', 'GET')).text();
  expect(stream).toMatch(/event: error\n(id: .*\n)?data: \{"stage":null,"kind":"StoreError"/);
  expect(stream).not.toContain('event: result');

  expect(await (await call('', 'grace', 'GET')).json()).toEqual([]);
  expect(payments).toBe(before);
  const stored = await loadRun(store, runId);
  expect(stored.status).toBe('paused');
  expect(stored.pending?.approvals.map((a) => a.callId)).toEqual(['c1']);

  // The owner sees and approves it.
  expect(await (await call('', 'ada', 'GET')).json()).toContain(runId);
  const approved = await call(`/${runId}/approve`, 'ada');
  expect(approved.status).toBe(201);
  expect(await approved.text()).toBe('settled');
  expect(payments).toBe(before + 1);
});

test('a request without an owner is a 401 and starts nothing', async () => {
  const before = (await listRuns(store)).length;
  const response = await call('', undefined);
  expect(response.status).toBe(401);
  expect((await listRuns(store)).length).toBe(before);
});
