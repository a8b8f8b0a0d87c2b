/**
 * Middleware in a real Nest app: `GolemModule.forRoot({ middleware })` ≈ global interceptors,
 * `@GolemMiddleware()` providers discovered anywhere (with injection), `@UseMiddleware` on the
 * agent class ≈ `@UseInterceptors` on a controller — in that order, outermost first.
 */
import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import type { Middleware, ModelRequest } from 'golem';
import { ConfigError } from 'golem';
import { Agent, UseMiddleware } from 'golem/decorators';
import {
  GolemModule,
  GolemMiddleware,
  getAgentToken,
  getModelToken,
  type InjectedAgent,
} from 'golem/nestjs';
import { FunctionModel, textResponse } from 'golem/testing';

function tagged(request: ModelRequest, tag: string): ModelRequest {
  const [first, ...rest] = request.messages;
  return {
    ...request,
    messages: [{ ...first, role: 'user', content: `${first?.content ?? ''}|${tag}` }, ...rest],
  };
}

function tagger(tag: string): Middleware {
  return { name: tag, request: (request) => tagged(request, tag) };
}

@Injectable()
class TagService {
  readonly tag = 'service';
}

/** Discovered app-wide: a provider of the feature module, injecting that module's service. */
@Injectable()
@GolemMiddleware()
class DiscoveredMiddleware implements Middleware {
  constructor(private readonly tags: TagService) {}
  request(request: ModelRequest): ModelRequest {
    return tagged(request, `discovered:${this.tags.tag}`);
  }
}

/** Listed in forRoot as a class: created by Nest in the root context. */
@Injectable()
class RootClassMiddleware implements Middleware {
  request(request: ModelRequest): ModelRequest {
    return tagged(request, 'root-class');
  }
}

/** The agent's own, as a class: created in the feature module's context, with injection. */
@Injectable()
class OwnClassMiddleware implements Middleware {
  constructor(private readonly tags: TagService) {}
  request(request: ModelRequest): ModelRequest {
    return tagged(request, `own-class:${this.tags.tag}`);
  }
}

@Agent({ model: 'default' })
@UseMiddleware(tagger('own'), OwnClassMiddleware)
class SupportAgent {}

@Agent({ model: 'default' })
class PlainAgent {}

@Module({
  imports: [GolemModule.forFeature([SupportAgent, PlainAgent])],
  providers: [TagService, DiscoveredMiddleware],
})
class SupportModule {}

function recorder(): { model: FunctionModel; seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    model: new FunctionModel((request) => {
      seen.push(request.messages[0]?.content ?? '');
      return textResponse('ok');
    }),
  };
}

async function boot(model: FunctionModel): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GolemModule.forRoot({
        defaultModel: 'test',
        middleware: [tagger('root'), RootClassMiddleware],
      }),
      SupportModule,
    ],
  })
    .overrideProvider(getModelToken('default'))
    .useValue(model)
    .compile();
  await moduleRef.init();
  return moduleRef;
}

test('forRoot first, then discovered @GolemMiddleware providers, then the class @UseMiddleware', async () => {
  const { model, seen } = recorder();
  const moduleRef = await boot(model);
  try {
    const support = moduleRef.get<InjectedAgent<typeof SupportAgent>>(getAgentToken(SupportAgent), {
      strict: false,
    });
    const plain = moduleRef.get<InjectedAgent<typeof PlainAgent>>(getAgentToken(PlainAgent), {
      strict: false,
    });
    await support.run('hi');
    await plain.run('hi');
    expect(seen).toEqual([
      'hi|root|root-class|discovered:service|own|own-class:service',
      'hi|root|root-class|discovered:service',
    ]);
  } finally {
    await moduleRef.close();
  }
});

test('forRootAsync takes middleware from its factory', async () => {
  const { model, seen } = recorder();
  @Module({ imports: [GolemModule.forFeature([PlainAgent])] })
  class PlainModule {}
  const moduleRef = await Test.createTestingModule({
    imports: [
      GolemModule.forRootAsync({ useFactory: () => ({ middleware: [tagger('async')] }) }),
      PlainModule,
    ],
  })
    .overrideProvider(getModelToken('default'))
    .useValue(model)
    .compile();
  await moduleRef.init();
  try {
    await moduleRef
      .get<InjectedAgent<typeof PlainAgent>>(getAgentToken(PlainAgent), { strict: false })
      .run('hi');
    expect(seen).toEqual(['hi|async']);
  } finally {
    await moduleRef.close();
  }
});

test('forRoot checks middleware', () => {
  expect(() => GolemModule.forRoot({ middleware: 'x' as never })).toThrow(ConfigError);
  expect(() => GolemModule.forRoot({ middleware: [{}] })).toThrow(
    /middleware\[0\] must be a middleware object/,
  );
});

test('a request-scoped @GolemMiddleware provider is refused at startup', async () => {
  const { Scope } = await import('@nestjs/common');
  @Injectable({ scope: Scope.REQUEST })
  @GolemMiddleware()
  class PerRequest implements Middleware {
    request(request: ModelRequest): ModelRequest {
      return request;
    }
  }
  @Module({ imports: [GolemModule.forFeature([PlainAgent])], providers: [PerRequest] })
  class PerRequestModule {}
  const building = Test.createTestingModule({
    imports: [GolemModule.forRoot({ defaultModel: 'test' }), PerRequestModule],
  }).compile();
  await expect(building).rejects.toThrow(/PerRequest is REQUEST-scoped/);
});
