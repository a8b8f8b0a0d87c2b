/**
 * The files `golem init` writes, per template: the package.json, a complete tsconfig, the agent
 * sources, a node:test test compiled by tsc, an offline main (`TestModel` unless a provider key
 * is set), a README and a .gitignore. Kept as strings so the build compiles them with the rest.
 */

/** The templates `golem init --template` accepts. */
export const TEMPLATES = ['plain', 'decorated', 'nest'] as const;
export type TemplateName = (typeof TEMPLATES)[number];

/** One line per template, for the usage text and the prompt. */
export const TEMPLATE_SUMMARIES: Readonly<Record<TemplateName, string>> = {
  plain: 'an Agent with a tool (golem only; no decorators)',
  decorated: 'an @Agent class with a @Tool, built by the container (golem/container)',
  nest: 'a NestJS app: GolemModule, an agent and a validated controller (golem/nestjs)',
};

/** What a template is rendered with. */
export interface TemplateInput {
  readonly template: TemplateName;
  /** The package name of the new project. */
  readonly name: string;
  /** The dependency spec of golem (`^0.1.0`, `file:/abs/golem-0.1.0.tgz`, a git URL). */
  readonly golemSpec: string;
  /** Version ranges of every other package the templates name (see {@link dependencyRanges}). */
  readonly ranges: Readonly<Record<string, string>>;
}

/** The packages each template depends on, besides golem. */
export const TEMPLATE_DEPENDENCIES: Readonly<Record<TemplateName, readonly string[]>> = {
  plain: [],
  decorated: [
    'class-transformer',
    'class-validator',
    'class-validator-jsonschema',
    'inversify',
    'reflect-metadata',
  ],
  nest: [
    '@nestjs/common',
    '@nestjs/core',
    '@nestjs/platform-express',
    'class-transformer',
    'class-validator',
    'class-validator-jsonschema',
    'reflect-metadata',
    'rxjs',
  ],
};

/** The test file of each template. */
const TEST_FILES: Readonly<Record<TemplateName, string>> = {
  plain: 'test/agent.test.ts',
  decorated: 'test/weather.agent.test.ts',
  nest: 'test/weather.test.ts',
};

/** Development dependencies of every template: the compiler and Node's types. */
export const DEV_DEPENDENCIES = ['@types/node', 'typescript'] as const;

/** The subset of golem's package.json the ranges come from. */
export interface GolemPackageJson {
  readonly version: string;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

/** The newest alternative of a range: `^10.0.0 || ^11.0.0 || ^12.0.0` gives `^12.0.0`. */
function newestAlternative(range: string): string {
  const alternatives = range.split('||').map((part) => part.trim());
  return alternatives[alternatives.length - 1] ?? range;
}

/** `^` and the pinned version of a development dependency (`5.9.3` gives `^5.9.3`). */
function caret(version: string): string {
  return /^\d/.test(version) ? `^${version}` : version;
}

/**
 * The range of every package the templates name, from golem's own package.json: a peer takes the
 * newest alternative of golem's peer range; `@nestjs/platform-express` follows `@nestjs/core`;
 * TypeScript and `@types/node` take the version golem is built and tested with.
 */
export function dependencyRanges(pkg: GolemPackageJson): Record<string, string> {
  const peers = pkg.peerDependencies ?? {};
  const dev = pkg.devDependencies ?? {};
  const ranges: Record<string, string> = {};
  const all = new Set(Object.values(TEMPLATE_DEPENDENCIES).flat());
  for (const name of all) {
    const peer = peers[name];
    if (peer !== undefined) ranges[name] = newestAlternative(peer);
  }
  const core = ranges['@nestjs/core'];
  if (core !== undefined) ranges['@nestjs/platform-express'] = core;
  for (const name of DEV_DEPENDENCIES) {
    const version = dev[name];
    if (version !== undefined) ranges[name] = caret(version);
  }
  for (const name of [...all, ...DEV_DEPENDENCIES])
    if (ranges[name] === undefined)
      throw new Error(`golem's package.json gives no version range for ${name}`);
  return ranges;
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

function sorted(entries: [string, string][]): Record<string, string> {
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function packageJson(input: TemplateInput): string {
  const range = (name: string): [string, string] => [name, input.ranges[name] as string];
  return json({
    name: input.name,
    version: '0.1.0',
    private: true,
    type: 'commonjs',
    engines: { node: '>=20.19' },
    scripts: {
      build: 'tsc -p tsconfig.json',
      // One file named, not a folder or a glob: Node 20 and Node 22+ read those differently.
      test: `npm run build && node --test dist/${TEST_FILES[input.template].replace(/\.ts$/, '.js')}`,
      start: 'npm run build && node dist/src/main.js',
    },
    dependencies: sorted([
      ['golem', input.golemSpec],
      ...TEMPLATE_DEPENDENCIES[input.template].map(range),
    ]),
    devDependencies: sorted(DEV_DEPENDENCIES.map(range)),
  });
}

function tsconfig(template: TemplateName): string {
  const decorators =
    template === 'plain'
      ? {}
      : {
          // Decorated classes: legacy decorators with metadata (tsc and SWC emit it; tsx and
          // esbuild do not, so build with tsc).
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          useDefineForClassFields: false,
        };
  return json({
    compilerOptions: {
      target: 'ES2022',
      // CommonJS output (package.json "type": "commonjs") with Node's resolution of `exports`.
      module: 'nodenext',
      moduleResolution: 'nodenext',
      types: ['node'],
      rootDir: '.',
      outDir: 'dist',
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      forceConsistentCasingInFileNames: true,
      sourceMap: true,
      ...decorators,
    },
    include: ['src', 'test'],
  });
}

const GITIGNORE = 'node_modules/\ndist/\n';

function readme(input: TemplateInput): string {
  const layout: Record<TemplateName, string> = {
    plain: [
      '- `src/agent.ts`: the agent (`new Agent`) and its tool (`defineTool`)',
      '- `src/main.ts`: one run, printed (`npm start`)',
      '- `test/agent.test.ts`: a test on `TestModel` (`npm test`)',
    ].join('\n'),
    decorated: [
      '- `src/weather.agent.ts`: the agent class (`@Agent`, `@Tool`, `@Output`) and its service',
      '- `src/container.ts`: the container that builds it (`createGolemContainer`)',
      '- `src/main.ts`: one run, printed (`npm start`)',
      '- `test/weather.agent.test.ts`: a test on `TestModel` (`npm test`)',
    ].join('\n'),
    nest: [
      '- `src/weather/`: the agent class, its repository, the controller and the feature module',
      '- `src/app.module.ts`: `GolemModule.forRoot` and the feature module; `src/app.ts` the',
      '  `ValidationPipe`',
      '- `src/main.ts`: the server (`npm start`, port `PORT` or 3000)',
      '- `test/weather.test.ts`: HTTP round trips on `TestModel` (`npm test`)',
    ].join('\n'),
  };
  const start =
    input.template === 'nest'
      ? [
          'npm start   # listens on http://localhost:3000',
          `curl -X POST localhost:3000/weather -H 'content-type: application/json' -d '{"city":"Lagos"}'`,
        ].join('\n')
      : 'npm start';
  return `# ${input.name}

A [golem](https://www.npmjs.com/package/golem) agent, from \`golem init --template ${input.template}\`.

\`\`\`sh
npm install
npm test
${start}
\`\`\`

With no provider key set, the agent runs offline on golem's \`TestModel\`, which calls the tools
with arguments sampled from their schemas (the \`examples\`: Lagos) and answers from their
results. Set \`OPENAI_API_KEY\`, \`ANTHROPIC_API_KEY\`, \`GEMINI_API_KEY\` or
\`GOLEM_LOCAL_BASE_URL\` (Ollama, LM Studio) to run it on that provider
(\`detectDefaultModel(process.env)\`).

${layout[input.template]}

\`npm run build\` compiles with \`tsc\` into \`dist/\`${
    input.template === 'plain'
      ? '.'
      : `: decorated classes need the decorator metadata tsc
(or SWC) emits — tsx and esbuild drop it.`
  }
`;
}

// ---------------------------------------------------------------------------------------------
// plain

const PLAIN_AGENT = `import { Agent, defineTool, ModelRetry, type Model } from 'golem';

/** What the model must send to the forecast tool. */
export interface ForecastArgs {
  city: string;
}

/** A stand-in for a weather API client (a real one would call a service). */
export function celsius(city: string): number {
  return city === 'Lagos' ? 31 : 20;
}

/** Model-written arguments are untrusted: check them, and say what to fix when they are wrong. */
function parseForecastArgs(args: unknown): ForecastArgs {
  const city = typeof args === 'object' && args !== null ? (args as { city?: unknown }).city : undefined;
  if (typeof city !== 'string' || city.trim() === '')
    throw new ModelRetry('city must be a non-empty string');
  return { city };
}

export const forecast = defineTool<unknown, ForecastArgs>({
  name: 'forecast',
  description: 'Temperature of a city, in °C',
  schema: {
    type: 'object',
    // \`examples\` guides the model (and TestModel's sample).
    properties: { city: { type: 'string', description: 'City name', examples: ['Lagos'] } },
    required: ['city'],
    additionalProperties: false,
  },
  parse: parseForecastArgs,
  execute: ({ city }) => \`\${city}: \${celsius(city)}°C\`,
});

/** The agent: a model, instructions and its tools. */
export function createAgent(model: Model) {
  return new Agent({
    model,
    instructions: 'You are a concise weather assistant. Use the forecast tool.',
    tools: [forecast],
  });
}
`;

const PLAIN_MAIN = `import { detectDefaultModel, resolveModel } from 'golem/providers/resolve';
import { TestModel } from 'golem/testing';
import { createAgent } from './agent';

async function main(): Promise<void> {
  // 'test' (the offline TestModel) unless a provider key is set: OPENAI_API_KEY, ANTHROPIC_API_KEY,
  // GEMINI_API_KEY or GOLEM_LOCAL_BASE_URL.
  const spec = detectDefaultModel(process.env);
  const model = resolveModel(spec, {
    env: process.env,
    testModel: (name) => new TestModel({ name }),
  });
  const agent = createAgent(model);
  const result = await agent.run('What is the weather in Lagos?');
  console.log(\`model: \${spec}\`);
  console.log(\`output: \${result.output}\`);
  console.log(
    \`usage: \${result.usage.inputTokens} input + \${result.usage.outputTokens} output tokens, \${result.requests} requests, \${result.toolCalls} tool calls\`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

const PLAIN_TEST = `import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { ScriptedModel, TestModel, textResponse, toolCallResponse } from 'golem/testing';
import { createAgent } from '../src/agent';

test('offline, TestModel calls the forecast tool with the example city', async () => {
  const result = await createAgent(new TestModel()).run('What is the weather in Lagos?');
  const tool = result.messages.find((message) => message.role === 'tool');
  assert.equal(tool?.toolName, 'forecast');
  assert.equal(tool?.content, 'Lagos: 31°C');
  assert.equal(result.toolCalls, 1);
});

test('a scripted model drives the conversation turn by turn', async () => {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name: 'forecast', args: { city: 'Oslo' } }]),
    textResponse('It is 20°C in Oslo.'),
  ]);
  const result = await createAgent(model).run('How warm is Oslo?');
  assert.equal(result.output, 'It is 20°C in Oslo.');
  assert.equal(result.messages.find((message) => message.role === 'tool')?.content, 'Oslo: 20°C');
});
`;

// ---------------------------------------------------------------------------------------------
// decorated

const DECORATED_AGENT = `import { IsInt, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { injectable } from 'inversify';
import type { RunContext } from 'golem';
import { Agent, DEPS_TYPE, Instructions, OUTPUT_TYPE, Output, Tool } from 'golem/decorators';

/** Who asks: the run's deps. */
export interface User {
  name: string;
}

/** The tool's arguments, validated before the method runs. */
export class ForecastArgs {
  @JSONSchema({ examples: ['Lagos'] }) // guides the model (and TestModel's sample)
  @IsString()
  city!: string;
}

/** The agent's output: the final answer is decoded into a validated instance. */
export class Forecast {
  @IsString() city!: string;
  @IsInt() celsius!: number;
}

/** A stand-in for a weather API client, injected into the agent by the container. */
@injectable()
export class WeatherApi {
  celsius(city: string): number {
    return city === 'Lagos' ? 31 : 20;
  }
}

@Agent({ model: 'default', maxIterations: 5 })
@Instructions('You are a concise weather assistant.')
@Output(Forecast)
export class WeatherAgent {
  declare readonly [OUTPUT_TYPE]: Forecast; // result.output is a Forecast
  declare readonly [DEPS_TYPE]: User; //       runs pass { deps: User }

  constructor(private readonly api: WeatherApi) {} // injected by the container

  @Instructions()
  user(ctx: RunContext<User>): string {
    return \`The user is \${ctx.deps.name}.\`;
  }

  @Tool({ description: 'Temperature of a city, in °C' })
  forecast(args: ForecastArgs): Forecast {
    return { city: args.city, celsius: this.api.celsius(args.city) }; // sent to the model as JSON
  }
}
`;

const DECORATED_CONTAINER = `import { createGolemContainer, type ModelSource } from 'golem/container';
import { WeatherAgent, WeatherApi } from './weather.agent';

/** The app's container: the model bound as 'default', the agent and its service. */
export function createAppContainer(defaultModel: ModelSource) {
  const container = createGolemContainer({ defaultModel, agents: [WeatherAgent] });
  container.bind(WeatherApi).toSelf().inSingletonScope();
  return container;
}
`;

const DECORATED_MAIN = `import { resolveAgent } from 'golem/container';
import { detectDefaultModel } from 'golem/providers/resolve';
import { createAppContainer } from './container';
import { WeatherAgent } from './weather.agent';

async function main(): Promise<void> {
  // 'test' (the offline TestModel) unless a provider key is set: OPENAI_API_KEY, ANTHROPIC_API_KEY,
  // GEMINI_API_KEY or GOLEM_LOCAL_BASE_URL.
  const model = detectDefaultModel(process.env);
  const agent = resolveAgent(createAppContainer(model), WeatherAgent); // Agent<User, Forecast>
  const result = await agent.run('What is the weather in Lagos?', { deps: { name: 'Ada' } });
  console.log(\`model: \${model}\`);
  console.log(\`output: \${JSON.stringify(result.output)}\`); // a validated Forecast
  console.log(
    \`usage: \${result.usage.inputTokens} input + \${result.usage.outputTokens} output tokens, \${result.requests} requests, \${result.toolCalls} tool calls\`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

const DECORATED_TEST = `import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { resolveAgent } from 'golem/container';
import { TestModel } from 'golem/testing';
import { createAppContainer } from '../src/container';
import { Forecast, WeatherAgent } from '../src/weather.agent';

test('the agent calls its tool and returns a validated Forecast', async () => {
  const model = new TestModel();
  const agent = resolveAgent(createAppContainer(model), WeatherAgent);
  const result = await agent.run('What is the weather in Lagos?', { deps: { name: 'Ada' } });
  assert.ok(result.output instanceof Forecast);
  assert.deepEqual({ ...result.output }, { city: 'Lagos', celsius: 31 });
  const system = model.requests[0]?.messages.find((message) => message.role === 'system');
  assert.match(system?.content ?? '', /The user is Ada\\./);
});
`;

// ---------------------------------------------------------------------------------------------
// nest

const NEST_AGENT = `import { Injectable } from '@nestjs/common';
import { IsInt, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { RunContext } from 'golem';
import { Agent, DEPS_TYPE, Instructions, OUTPUT_TYPE, Output, Tool } from 'golem/decorators';

/** Who asks: the run's deps. */
export interface User {
  name: string;
}

/** The tool's arguments, validated before the method runs. */
export class CityArgs {
  @JSONSchema({ examples: ['Lagos'] }) // guides the model (and TestModel's sample)
  @IsString()
  city!: string;
}

/** The agent's output: the final answer is decoded into a validated instance. */
export class Forecast {
  @IsString() city!: string;
  @IsInt() celsius!: number;
}

/** A stand-in for a weather API client: a provider of WeatherModule. */
@Injectable()
export class WeatherRepository {
  celsius(city: string): number {
    return city === 'Lagos' ? 31 : 20;
  }
}

@Agent({ model: 'default', maxIterations: 5 })
@Instructions('You are a concise weather assistant.')
@Output(Forecast)
export class WeatherAgent {
  declare readonly [OUTPUT_TYPE]: Forecast; // result.output is a Forecast
  declare readonly [DEPS_TYPE]: User; //       runs pass { deps: User }

  constructor(private readonly repository: WeatherRepository) {} // WeatherModule's provider

  @Instructions()
  user(ctx: RunContext<User>): string {
    return \`The user is \${ctx.deps.name}.\`;
  }

  @Tool({ description: 'Temperature of a city, in °C' })
  forecast(args: CityArgs): Forecast {
    return { city: args.city, celsius: this.repository.celsius(args.city) };
  }
}
`;

const NEST_CONTROLLER = `import { Body, Controller, Post } from '@nestjs/common';
import { IsNotEmpty, IsString } from 'class-validator';
import { InjectAgent, type InjectedAgent } from 'golem/nestjs';
import { Forecast, WeatherAgent } from './weather.agent';

/** The request body, checked by the app's ValidationPipe (a 400 when it does not fit). */
export class AskDto {
  @IsString()
  @IsNotEmpty()
  city!: string;
}

@Controller('weather')
export class WeatherController {
  constructor(
    @InjectAgent(WeatherAgent) private readonly weather: InjectedAgent<typeof WeatherAgent>,
  ) {}

  @Post()
  async ask(@Body() body: AskDto): Promise<Forecast> {
    const result = await this.weather.run(\`Weather in \${body.city}?\`, { deps: { name: 'Ada' } });
    return result.output; // a validated Forecast
  }
}
`;

const NEST_FEATURE = `import { Module } from '@nestjs/common';
import { GolemModule } from 'golem/nestjs';
import { WeatherController } from './weather.controller';
import { WeatherAgent, WeatherRepository } from './weather.agent';

@Module({
  imports: [GolemModule.forFeature([WeatherAgent])],
  providers: [WeatherRepository],
  controllers: [WeatherController],
})
export class WeatherModule {}
`;

const NEST_APP_MODULE = `import { Module } from '@nestjs/common';
import { GolemModule } from 'golem/nestjs';
import { detectDefaultModel } from 'golem/providers/resolve';
import { WeatherModule } from './weather/weather.module';

@Module({
  imports: [
    // 'test' (the offline TestModel) unless a provider key is set: OPENAI_API_KEY,
    // ANTHROPIC_API_KEY, GEMINI_API_KEY or GOLEM_LOCAL_BASE_URL.
    GolemModule.forRoot({ defaultModel: detectDefaultModel(process.env) }),
    WeatherModule,
  ],
})
export class AppModule {}
`;

const NEST_APP = `import { ValidationPipe, type INestApplication } from '@nestjs/common';

/** What main.ts and the tests both apply: request bodies are validated against their DTOs. */
export function configureApp<App extends INestApplication>(app: App): App {
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }));
  return app;
}
`;

const NEST_MAIN = `import { NestFactory } from '@nestjs/core';
import { configureApp } from './app';
import { AppModule } from './app.module';

async function bootstrap(): Promise<void> {
  const app = configureApp(await NestFactory.create(AppModule));
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 3000));
  const url = await app.getUrl();
  console.log(\`listening on \${url}\`);
  console.log(
    \`try: curl -X POST \${url}/weather -H 'content-type: application/json' -d '{"city":"Lagos"}'\`,
  );
}

bootstrap().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

const NEST_TEST = `import { strict as assert } from 'node:assert';
import { after, before, test } from 'node:test';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { GolemTestingModule } from 'golem/nestjs';
import { configureApp } from '../src/app';
import { WeatherModule } from '../src/weather/weather.module';

// The feature module under the offline TestModel, whatever keys the environment has.
@Module({ imports: [GolemTestingModule.forRoot(), WeatherModule] })
class TestAppModule {}

let app: INestApplication;
let url: string;

before(async () => {
  app = configureApp(await NestFactory.create(TestAppModule, { logger: false }));
  await app.listen(0, '127.0.0.1');
  url = \`\${await app.getUrl()}/weather\`;
});

after(async () => {
  await app.close();
});

const post = (body: unknown): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('POST /weather runs the agent and answers with its Forecast', async () => {
  const response = await post({ city: 'Lagos' });
  assert.equal(response.status, 201);
  assert.deepEqual(await response.json(), { city: 'Lagos', celsius: 31 });
});

test('a body that does not fit the DTO is a 400, and no run starts', async () => {
  const response = await post({ town: 'Lagos' });
  assert.equal(response.status, 400);
  const body = (await response.json()) as { message: string[] };
  assert.ok(body.message.some((line) => line.includes('city')));
});
`;

/** The files of a project: path (relative, `/`-separated) → content. */
export function renderTemplate(input: TemplateInput): Record<string, string> {
  const common = {
    'package.json': packageJson(input),
    'tsconfig.json': tsconfig(input.template),
    '.gitignore': GITIGNORE,
    'README.md': readme(input),
  };
  switch (input.template) {
    case 'plain':
      return {
        ...common,
        'src/agent.ts': PLAIN_AGENT,
        'src/main.ts': PLAIN_MAIN,
        [TEST_FILES.plain]: PLAIN_TEST,
      };
    case 'decorated':
      return {
        ...common,
        'src/weather.agent.ts': DECORATED_AGENT,
        'src/container.ts': DECORATED_CONTAINER,
        'src/main.ts': DECORATED_MAIN,
        [TEST_FILES.decorated]: DECORATED_TEST,
      };
    case 'nest':
      return {
        ...common,
        'src/weather/weather.agent.ts': NEST_AGENT,
        'src/weather/weather.controller.ts': NEST_CONTROLLER,
        'src/weather/weather.module.ts': NEST_FEATURE,
        'src/app.module.ts': NEST_APP_MODULE,
        'src/app.ts': NEST_APP,
        'src/main.ts': NEST_MAIN,
        [TEST_FILES.nest]: NEST_TEST,
      };
  }
}
