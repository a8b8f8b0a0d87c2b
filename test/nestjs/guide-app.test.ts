/**
 * The NestJS guide's opening app (docs/guides/nestjs.md, its first ```ts block) runs as written,
 * offline, and answers exactly what the guide's curl exchanges show: its own code is imported
 * (only the `listen(3000)` bootstrap call left out), built with @nestjs/testing and driven over
 * loopback HTTP with fetch.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getModelToken } from 'golem/nestjs';
import { TestModel } from 'golem/testing';

const repo = join(__dirname, '..', '..');
const guide = readFileSync(join(repo, 'docs', 'guides', 'nestjs.md'), 'utf8');

/** The guide's first ```ts block, as a module exporting its AppModule instead of listening. */
function appModule(): string {
  const code = /\n```ts\n([\s\S]*?)\n```\n/.exec(guide)?.[1];
  const bootstrap = '\nvoid bootstrap();';
  if (code?.includes(bootstrap) !== true) throw new Error('the first block no longer ends so');
  return `${code.replace(bootstrap, '')}\nexport { AppModule };\n`;
}

/** The guide's curl exchanges: the JSON body sent, and the response line shown under it. */
function exchanges(): { body: unknown; shown: string }[] {
  const lines = guide.split('\n');
  return lines.flatMap((line, i) => {
    const sent = /^curl -s -w ' %\{http_code\}\\n' --json '(.*)' localhost:3000\/weather$/.exec(
      line,
    );
    if (sent === null) return [];
    const shown = /^# (.*)$/.exec(lines[i + 1] ?? '')?.[1];
    if (shown === undefined) throw new Error(`no "# response" line under: ${line}`);
    return [{ body: JSON.parse(sent[1] ?? '') as unknown, shown }];
  });
}

const PROVIDER_ENV = /^(OPENAI|ANTHROPIC|GEMINI|GOOGLE|GOLEM)_/;
const dir = mkdtempSync(join(tmpdir(), 'golem-nest-guide-'));
const saved = Object.entries(process.env).filter(([key]) => PROVIDER_ENV.test(key));
let AppModule: Type;
let app: INestApplication | undefined;

beforeAll(async () => {
  for (const [key] of saved) Reflect.deleteProperty(process.env, key); // offline, as the guide says
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'junction');
  writeFileSync(join(dir, 'guide-app.ts'), appModule());
  ({ AppModule } = (await import(join(dir, 'guide-app.ts'))) as { AppModule: Type });
});

afterAll(() => {
  for (const [key, value] of saved) process.env[key] = value;
  rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(model?: TestModel): Promise<string> {
  let builder = Test.createTestingModule({ imports: [AppModule] });
  if (model !== undefined)
    builder = builder.overrideProvider(getModelToken('default')).useValue(model);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest's options are plain objects
  app = (await builder.compile()).createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  return `${await app.getUrl()}/weather`;
}

function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

test('the guide shows a good and a bad request', () => {
  expect(exchanges().map((e) => e.body)).toEqual([{ city: 'Lagos' }, { city: '', days: 2 }]);
});

test("every curl exchange of the guide answers, offline, exactly the line shown under it (the TestModel's Lagos forecast, the ValidationPipe's 400)", async () => {
  const base = await start(); // the guide's own model: detectDefaultModel with no key is 'test'
  for (const { body, shown } of exchanges()) {
    const response = await post(base, body);
    expect(`${await response.text()} ${response.status}`).toBe(shown);
  }
});

test('the offline answer comes from the forecast tool, called with the schema example', async () => {
  const model = new TestModel();
  const base = await start(model);
  expect(await (await post(base, { city: 'Lagos' })).json()).toEqual({
    city: 'Lagos',
    celsius: 31,
  });
  expect(model.requests).toHaveLength(2);
  expect(model.requests[1]?.messages.at(-1)).toMatchObject({
    role: 'tool',
    content: '{"city":"Lagos","celsius":31}',
  });
});

test('a bad body never reaches the agent: missing, mistyped or undeclared fields are 400s', async () => {
  const model = new TestModel();
  const base = await start(model);
  const LENGTH =
    'city must be longer than or equal to 1 and shorter than or equal to 80 characters';
  const cases: [unknown, string[]][] = [
    [{}, ['city must be longer than or equal to 1 characters', 'city must be a string']],
    [{ city: 7 }, [LENGTH, 'city must be a string']],
    [{ city: 'x'.repeat(81) }, ['city must be shorter than or equal to 80 characters']],
    [{ city: 'Lagos', admin: true }, ['property admin should not exist']],
  ];
  for (const [body, message] of cases) {
    const response = await post(base, body);
    expect({ status: response.status, body: (await response.json()) as unknown }).toEqual({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message },
    });
  }
  expect(model.requests).toHaveLength(0);
});
