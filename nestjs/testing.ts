import type { DynamicModule } from '@nestjs/common';
import type { Model } from '../src/core/index';
import { GolemModule } from './golem-module';
import type { GolemModuleOptions } from './options';
import { getModelToken } from './tokens';

/**
 * `GolemModule.forRoot` for tests: nothing can reach a provider. The environment is empty (no
 * keys are read), `default` is the offline `TestModel` unless `options` bind it, and a name
 * nothing binds is an error even when it is a model string. Bind the models the test scripts:
 *
 * ```ts
 * const moduleRef = await Test.createTestingModule({
 *   imports: [GolemTestingModule.forRoot({ defaultModel: new ScriptedModel([…]) }), WeatherModule],
 * }).compile();
 * ```
 */
export class GolemTestingModule {
  /** The offline root module (see {@link GolemTestingModule}). */
  static forRoot(options: GolemModuleOptions = {}): DynamicModule {
    const bindsDefault =
      options.defaultModel !== undefined || options.models?.default !== undefined;
    return GolemModule.forRoot({
      env: {},
      resolveModelStrings: false,
      ...(!bindsDefault && { defaultModel: 'test' }),
      ...options,
    });
  }
}

/** What `overrideModels` needs of `@nestjs/testing`'s `TestingModuleBuilder`. */
export interface ProviderOverrider<B> {
  overrideProvider(token: unknown): { useValue(value: unknown): B };
}

/**
 * Replaces the models of an application under test, by name, in one call: each name's
 * `getModelToken(name)` provider is overridden with the model. Returns the builder.
 *
 * ```ts
 * const app = await overrideModels(Test.createTestingModule({ imports: [AppModule] }), {
 *   default: new ScriptedModel([textResponse('{"city":"Lagos","celsius":31}')]),
 * }).compile();
 * ```
 */
export function overrideModels<B extends ProviderOverrider<B>>(
  builder: B,
  models: Readonly<Record<string, Model>>,
): B {
  let current = builder;
  for (const [name, model] of Object.entries(models))
    current = current.overrideProvider(getModelToken(name)).useValue(model);
  return current;
}
