/**
 * Run owners through the Nest queue helpers, over real HTTP: the HTTP-side application reads the
 * owner from each request (`GolemModule.forRoot({ runOwner })`, `@RunOwner()`) and passes it to
 * every `RunQueue` call; a worker-side application (registerWorker) runs the decorated class with
 * that owner. Another owner's run is answered by `GolemQueueExceptionFilter` exactly as an unknown
 * id — a 404 with the same body — on every route, and nothing happens to it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Body,
  Controller,
  Get,
  Injectable,
  Module,
  Param,
  Post,
  type INestApplication,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { loadRun, type DeferredResults, type RunContext } from 'golem';
import { Agent, DEPS_TYPE, NoArgs, PAUSABLE_TYPE, Tool } from 'golem/decorators';
import { GolemModule, RunOwner } from 'golem/nestjs';
import {
  GolemQueueExceptionFilter,
  GolemQueueModule,
  getRunQueueToken,
  InjectRunQueue,
} from 'golem/nestjs/queue';
import type { RunQueue } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../redis';

jest.setTimeout(30_000);

@Injectable()
class Ledger {
  readonly refunds: string[] = [];
  refund(customer: string): string {
    this.refunds.push(customer);
    return `refunded ${customer}`;
  }
}

@Agent({ model: 'default', deferredTools: true })
class RefundAgent {
  declare readonly [DEPS_TYPE]: { customer: string };
  declare readonly [PAUSABLE_TYPE]: true;

  constructor(private readonly ledger: Ledger) {}

  @Tool({ description: 'Refund the customer', approval: true })
  refund(_args: NoArgs, ctx: RunContext<{ customer: string }>): string {
    return this.ledger.refund(ctx.deps.customer);
  }
}

@Module({ imports: [GolemModule.forFeature([RefundAgent])], providers: [Ledger] })
class RefundModule {}

@Controller('refunds')
class RefundsController {
  constructor(@InjectRunQueue() private readonly runs: RunQueue) {}

  @Post()
  async start(@Body() body: { customer: string }, @RunOwner() owner: string) {
    const { runId } = await this.runs.enqueue(RefundAgent, 'Refund me', {
      deps: { customer: body.customer },
      owner,
    });
    return { runId };
  }

  @Get(':id')
  async status(@Param('id') id: string, @RunOwner() owner: string) {
    return { state: (await this.runs.status(id, { owner })).state };
  }

  @Get(':id/result')
  async result(@Param('id') id: string, @RunOwner() owner: string) {
    return { status: (await this.runs.result(id, { owner })).status };
  }

  @Post(':id/decision')
  async decide(
    @Param('id') id: string,
    @Body() decisions: DeferredResults,
    @RunOwner() owner: string,
  ) {
    return this.runs.decide(id, decisions, { owner });
  }

  @Post(':id/cancel')
  async cancel(@Param('id') id: string, @RunOwner() owner: string) {
    return { done: await this.runs.cancel(id, { owner, reason: 'asked to' }) };
  }
}

const model = new FunctionModel((request) =>
  request.messages.some((m) => m.role === 'tool')
    ? textResponse('Refund done.')
    : toolCallResponse([{ id: 'r1', name: 'refund', args: {} }]),
);

const prefix = uniquePrefix();
const dir = mkdtempSync(join(tmpdir(), 'golem-nest-owners-'));
const store = sqliteStore({ path: join(dir, 'runs.db') });
let worker: TestingModule;
let http: INestApplication;
let base: string;

beforeAll(async () => {
  const queueRoot = GolemQueueModule.forRoot({ connection: REDIS_URL, prefix });
  worker = await Test.createTestingModule({
    imports: [
      GolemModule.forRoot({ defaultModel: model, store }),
      RefundModule,
      queueRoot,
      GolemQueueModule.registerWorker({ agents: [RefundAgent] }),
    ],
  }).compile();
  await worker.init();
  const httpModule = await Test.createTestingModule({
    imports: [
      GolemModule.forRoot({
        defaultModel: model,
        store,
        runOwner: (request: { headers: Record<string, string | undefined> }) =>
          request.headers['x-user'],
      }),
      GolemQueueModule.forRoot({ connection: REDIS_URL, prefix }),
    ],
    controllers: [RefundsController],
    providers: [{ provide: APP_FILTER, useClass: GolemQueueExceptionFilter }],
  }).compile();
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest's options are plain objects
  http = httpModule.createNestApplication({ logger: false });
  await http.listen(0, '127.0.0.1');
  base = await http.getUrl();
});

afterAll(async () => {
  await http.close();
  await worker.close();
  await store.close();
  const redis = testRedis();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

async function call(
  path: string,
  user: string,
  method: 'GET' | 'POST',
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}/refunds${path}`, {
    method,
    headers: { 'x-user': user, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

test("another owner's queued run is a 404 like an unknown id on every route; its owner decides it", async () => {
  const started = await call('', 'ada', 'POST', { customer: 'Ada' });
  expect(started.status).toBe(201);
  const { runId } = started.body as { runId: string };
  expect(await call(`/${runId}/result`, 'ada', 'GET')).toEqual({
    status: 200,
    body: { status: 'paused' },
  });
  expect((await loadRun(store, runId)).owner).toBe('ada');

  const approve = { approvals: { r1: { approved: true } } };
  for (const [path, method, body] of [
    ['', 'GET', undefined],
    ['/result', 'GET', undefined],
    ['/decision', 'POST', approve],
    ['/cancel', 'POST', undefined],
  ] as const) {
    const unknown = await call(`/no-such-run${path}`, 'grace', method, body);
    expect(unknown.status).toBe(404);
    const foreign = await call(`/${runId}${path}`, 'grace', method, body);
    expect(foreign).toEqual({
      status: 404,
      body: JSON.parse(JSON.stringify(unknown.body).split('no-such-run').join(runId)) as unknown,
    });
  }
  expect(worker.get(Ledger).refunds).toEqual([]);
  expect((await loadRun(store, runId)).status).toBe('paused');

  expect((await call(`/${runId}/decision`, 'ada', 'POST', approve)).status).toBe(201);
  const runs = http.get<RunQueue>(getRunQueueToken());
  expect(await runs.result(runId, { owner: 'ada', until: 'finished' })).toMatchObject({
    status: 'completed',
    output: 'Refund done.',
  });
  expect(worker.get(Ledger).refunds).toEqual(['Ada']);
  expect(await call(`/${runId}`, 'ada', 'GET')).toEqual({
    status: 200,
    body: { state: 'completed' },
  });
});
