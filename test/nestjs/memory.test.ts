/**
 * Memory through a real Nest app: `GolemModule.forRoot({ memory })`, the owner read from the
 * request (`@RunOwner()`), and an `@WorkingMemory` agent whose record follows the user across
 * threads.
 */
import { Body, Controller, Module, Post, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsIn, IsOptional } from 'class-validator';
import { Agent, WorkingMemory } from 'golem/decorators';
import { Memory } from 'golem/memory';
import {
  GolemModule,
  GolemTestingModule,
  getMemoryToken,
  InjectAgent,
  RunOwner,
  type InjectedAgent,
} from 'golem/nestjs';
import { memoryRecallStore, memoryStore } from 'golem/stores/memory';
import { FunctionModel, TestEmbeddingModel, textResponse, toolCallResponse } from 'golem/testing';
import type { ModelRequest } from 'golem';

class Plan {
  @IsOptional() @IsIn(['free', 'pro']) plan?: string;
}

@Agent({ model: 'default' })
@WorkingMemory(Plan)
class SupportAgent {}

@Controller('chat')
class ChatController {
  constructor(
    @InjectAgent(SupportAgent) private readonly agent: InjectedAgent<typeof SupportAgent>,
  ) {}

  @Post()
  async chat(
    @Body() body: { thread: string; text: string },
    @RunOwner() owner: string,
  ): Promise<{ answer: string }> {
    const result = await this.agent.run(body.text, { owner, conversation: body.thread });
    return { answer: result.output };
  }
}

@Module({ imports: [GolemModule.forFeature([SupportAgent])], controllers: [ChatController] })
class ChatModule {}

const requests: ModelRequest[] = [];
const model = new FunctionModel((request) => {
  requests.push(request);
  const last = request.messages.at(-1);
  if (last?.role === 'user' && last.content?.includes('upgraded'))
    return toolCallResponse([{ id: 'c1', name: 'update_working_memory', args: { plan: 'pro' } }]);
  return textResponse('ok');
});
const memory = new Memory({
  recall: {
    store: memoryRecallStore({ dimensions: 64 }),
    embedder: new TestEmbeddingModel({ dimensions: 64 }),
  },
});

let app: INestApplication;
let base: string;

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GolemTestingModule.forRoot({
        defaultModel: model,
        store: memoryStore(),
        memory,
        runOwner: (request: { headers: Record<string, string | undefined> }) =>
          request.headers['x-user'],
      }),
      ChatModule,
    ],
  }).compile();
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest's options are plain objects
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  base = await app.getUrl();
  expect(moduleRef.get(getMemoryToken())).toBe(memory);
});

afterAll(async () => {
  await app.close();
});

async function chat(user: string, thread: string, text: string): Promise<void> {
  const response = await fetch(`${base}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify({ thread, text }),
  });
  expect(response.status).toBe(201);
}

test("the request's owner scopes the working memory, which follows the user across threads", async () => {
  await chat('ada', 'thread-1', 'I upgraded to pro today');
  requests.length = 0;
  await chat('ada', 'thread-2', 'what plan am I on?');
  expect(requests[0]?.messages[0]?.content).toContain('{"plan":"pro"}');
  expect(requests[0]?.messages[0]?.content).toContain('<recalled_context>');
  requests.length = 0;
  await chat('bob', 'thread-3', 'what plan am I on?');
  const system = requests[0]?.messages[0]?.content ?? '';
  expect(system).toContain('<working_memory>');
  expect(system).not.toContain('"plan":"pro"');
  expect(system).not.toContain('upgraded');
});

test('forRoot rejects a memory that is not a Memory, naming the fix', () => {
  expect(() => GolemModule.forRoot({ memory: {} as never })).toThrow(
    /memory must be a Memory from golem\/memory/,
  );
});
