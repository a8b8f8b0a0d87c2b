/**
 * A request-scoped agent resolved through `ModuleRef` with a request registered by hand
 * (`ContextIdFactory.create()` + `registerRequestByContextId`) — a job, a message consumer —
 * sees that request, as an agent built for an HTTP request sees its own.
 */
import {
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  Query,
  Scope,
  type INestApplication,
} from '@nestjs/common';
import { ContextIdFactory, ModuleRef, REQUEST } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Agent, NoArgs, Tool } from 'golem/decorators';
import { GolemModule, GolemTestingModule, getAgentToken } from 'golem/nestjs';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

interface FakeRequest {
  headers: Record<string, string | undefined>;
}

@Injectable({ scope: Scope.REQUEST })
class Transaction {
  readonly id: string;
  constructor(@Inject(REQUEST) request: FakeRequest | undefined) {
    this.id = request?.headers['x-tx'] ?? 'no request';
  }
}

@Agent()
class LedgerAgent {
  constructor(
    readonly tx: Transaction,
    @Inject(REQUEST) readonly request: FakeRequest | undefined,
  ) {}
  @Tool({ description: 'The current transaction and caller' })
  transaction(_args: NoArgs): string {
    return `${this.tx.id} for ${this.request?.headers['x-user'] ?? 'nobody'}`;
  }
}

/** A singleton controller that runs the agent for a synthetic request, as a job would. */
@Controller('jobs')
class JobsController {
  constructor(private readonly moduleRef: ModuleRef) {}

  @Get()
  async job(@Query('tx') tx: string, @Query('user') user: string): Promise<string | undefined> {
    const contextId = ContextIdFactory.create();
    const request: FakeRequest = { headers: { 'x-tx': tx, 'x-user': user } };
    this.moduleRef.registerRequestByContextId(request, contextId);
    const agent = await this.moduleRef.resolve(getAgentToken(LedgerAgent), contextId, {
      strict: false,
    });
    const result = await agent.run('which transaction?');
    return result.messages.find((m) => m.role === 'tool')?.content;
  }
}

@Module({
  imports: [GolemModule.forFeature([{ agent: LedgerAgent, scope: 'request' }])],
  providers: [Transaction],
  controllers: [JobsController],
})
class LedgerModule {}

let app: INestApplication;
let base: string;

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GolemTestingModule.forRoot({
        defaultModel: new FunctionModel((request) =>
          request.messages.some((m) => m.role === 'tool')
            ? textResponse('done')
            : toolCallResponse([{ id: 'c1', name: 'transaction' }]),
        ),
      }),
      LedgerModule,
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

test('a request-scoped agent resolved through ModuleRef with a registered request sees that request', async () => {
  const answers = await Promise.all(
    [
      ['tx-1', 'ada'],
      ['tx-2', 'grace'],
    ].map(async ([tx, user]) => {
      const response = await fetch(`${base}/jobs?tx=${tx}&user=${user}`);
      expect(response.status).toBe(200);
      return response.text();
    }),
  );
  expect(answers).toEqual(['tx-1 for ada', 'tx-2 for grace']);
});
