/**
 * What a tool, a model or an instructions method throws never reaches the HTTP client through
 * GolemExceptionFilter, runErrorResponse or the SSE error event: the client gets the stage and a
 * generic text, Nest's Logger gets the details (the same rule as golem/ui and the MCP server).
 */
import {
  Controller,
  Get,
  Module,
  Res,
  Sse,
  type INestApplication,
  type LoggerService,
  type MessageEvent,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { Observable } from 'rxjs';
import { ConfigError, RunError, RunInputError } from 'golem';
import { Agent, Instructions, NoArgs, Tool } from 'golem/decorators';
import {
  GolemExceptionFilter,
  GolemModule,
  GolemTestingModule,
  InjectAgent,
  runErrorData,
  runErrorResponse,
  sseFromRun,
  writeRunSse,
  type InjectedAgent,
  type SseResponse,
} from 'golem/nestjs';
import { StreamFunctionModel, toolCallResponse } from 'golem/testing';

const SECRET = 'connect postgres://admin:hunter2@db.internal:5432/payments failed';

@Agent({ model: 'tooling' })
class ToolAgent {
  @Tool({ description: 'Reads the ledger' })
  ledger(_args: NoArgs): string {
    throw new Error(SECRET);
  }
}

@Agent({ model: 'broken' })
class ModelAgent {}

@Agent({ model: 'tooling' })
class InstructedAgent {
  @Instructions()
  fromDatabase(): string {
    throw new Error(SECRET);
  }
}

@Controller()
class RunsController {
  constructor(
    @InjectAgent(ToolAgent) private readonly tools: InjectedAgent<typeof ToolAgent>,
    @InjectAgent(ModelAgent) private readonly model: InjectedAgent<typeof ModelAgent>,
    @InjectAgent(InstructedAgent)
    private readonly instructed: InjectedAgent<typeof InstructedAgent>,
  ) {}

  @Get('tool')
  async tool(): Promise<string> {
    return (await this.tools.run('hi')).output;
  }

  @Get('model')
  async modelFails(): Promise<string> {
    return (await this.model.run('hi')).output;
  }

  @Get('instructions')
  async instructions(): Promise<string> {
    return (await this.instructed.run('hi')).output;
  }

  @Sse('tool/stream')
  toolStream(): Observable<MessageEvent> {
    return sseFromRun((signal) => this.tools.runStream('hi', { signal }));
  }

  @Sse('model/stream')
  modelStream(): Observable<MessageEvent> {
    return sseFromRun((signal) => this.model.runStream('hi', { signal }));
  }

  @Get('model/raw')
  async modelRaw(@Res() res: SseResponse): Promise<void> {
    await writeRunSse(res, (signal) => this.model.runStream('hi', { signal }));
  }
}

@Module({
  imports: [GolemModule.forFeature([ToolAgent, ModelAgent, InstructedAgent])],
  controllers: [RunsController],
  providers: [{ provide: APP_FILTER, useClass: GolemExceptionFilter }],
})
class RunsModule {}

/** Keeps what Nest logs, to check the details are there. */
class RecordingLogger implements LoggerService {
  readonly lines: string[] = [];
  log(): void {}
  warn(): void {}
  error(...parts: unknown[]): void {
    this.lines.push(parts.map(String).join(' '));
  }
}

const logger = new RecordingLogger();
let app: INestApplication;
let base: string;

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GolemTestingModule.forRoot({
        models: {
          tooling: new StreamFunctionModel(() => toolCallResponse([{ id: 'c1', name: 'ledger' }])),
          broken: new StreamFunctionModel(() => {
            throw new Error(SECRET);
          }),
        },
      }),
      RunsModule,
    ],
  }).compile();
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest's options are plain objects
  app = moduleRef.createNestApplication({ logger });
  await app.listen(0, '127.0.0.1');
  base = await app.getUrl();
});

afterAll(async () => {
  await app.close();
});

beforeEach(() => {
  logger.lines.length = 0;
});

function expectLogged(): void {
  expect(logger.lines.some((line) => line.includes(SECRET))).toBe(true);
}

test("a tool's thrown text is not in the 502 body; the stage is, and the log has the details", async () => {
  const response = await fetch(`${base}/tool`);
  expect(response.status).toBe(502);
  const text = await response.text();
  expect(text).not.toContain('hunter2');
  expect(text).not.toContain('postgres://');
  expect(JSON.parse(text)).toEqual({
    statusCode: 502,
    error: 'Bad Gateway',
    stage: 'tool',
    message: expect.stringMatching(/^The run failed at the "tool" stage \(\w+\)\.$/) as string,
  });
  expectLogged();
});

test("a model's thrown text is not in the 502 body", async () => {
  const response = await fetch(`${base}/model`);
  expect(response.status).toBe(502);
  const text = await response.text();
  expect(text).not.toContain('hunter2');
  expect(JSON.parse(text)).toMatchObject({ stage: 'model' });
  expectLogged();
});

test("an instructions method's thrown text is not in the 400 body", async () => {
  const response = await fetch(`${base}/instructions`);
  expect(response.status).toBe(400);
  const text = await response.text();
  expect(text).not.toContain('hunter2');
  expect(JSON.parse(text)).toEqual({
    statusCode: 400,
    error: 'Bad Request',
    message: 'The run could not start (RunInputError).',
  });
  expectLogged();
});

test.each(['tool/stream', 'model/stream', 'model/raw'])(
  'the SSE error event of %s carries the stage, not the thrown text',
  async (path) => {
    const response = await fetch(`${base}/${path}`);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('postgres://');
    const error = /event: error\n(?:id: .*\n)?data: (.*)\n/.exec(text)?.[1];
    expect(JSON.parse(error ?? 'null')).toEqual({
      stage: path.startsWith('tool') ? 'tool' : 'model',
      kind: 'RunError',
      message: expect.stringMatching(
        /^The run failed at the "(tool|model)" stage \(\w+\)\.$/,
      ) as string,
    });
    expectLogged();
  },
);

test('runErrorResponse keeps the thrown text out of the body and in the cause', () => {
  const failure = new RunError('model', new Error(SECRET));
  const answer = runErrorResponse(failure);
  expect(JSON.stringify(answer?.getResponse())).not.toContain('hunter2');
  expect(answer?.cause).toBe(failure);
});

test("a model factory's thrown text in a golem/nestjs ConfigError is not in the SSE error data", () => {
  const failure = new ConfigError(`the model factory bound to "default" threw: ${SECRET}`, {
    component: 'nestjs',
    reason: 'model-failed',
    model: 'default',
  });
  expect(runErrorData(failure)).toEqual({
    stage: null,
    kind: 'ConfigError',
    message: 'The run could not start (ConfigError).',
  });
});

test('Golem’s own word on a refused input is kept', () => {
  expect(runErrorData(new RunInputError('history must be an array of messages'))).toMatchObject({
    message: 'history must be an array of messages',
  });
});
