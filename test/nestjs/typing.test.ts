/**
 * Type-level tests (checked by `tsc --noEmit`; the runtime assertions are trivial): injected
 * agents are typed from the class markers, tokens carry their types into moduleRef.get, and the
 * SSE events are Nest MessageEvents.
 */
import type { MessageEvent } from '@nestjs/common';
import type { TestingModule } from '@nestjs/testing';
import { expectTypeOf } from 'expect-type';
import type { Observable } from 'rxjs';
import type { Agent as EngineAgent, CompletedResult, Model, Result } from 'golem';
import { Agent, PAUSABLE_TYPE } from 'golem/decorators';
import {
  getAgentToken,
  getModelToken,
  sseFromRun,
  type InjectedAgent,
  type RunMessageEvent,
  type RunResultData,
} from 'golem/nestjs';
import { Forecast, WeatherAgent, type User } from './fixtures';

@Agent({ deferredTools: true })
export class PausingAgent {
  declare readonly [PAUSABLE_TYPE]: true;
}

test('InjectedAgent is the engine agent typed from the markers', () => {
  expectTypeOf<InjectedAgent<typeof WeatherAgent>>().toEqualTypeOf<EngineAgent<User, Forecast>>();
  expectTypeOf<InjectedAgent<typeof PausingAgent>>().toEqualTypeOf<
    EngineAgent<unknown, string, true>
  >();
  type Run = ReturnType<InjectedAgent<typeof WeatherAgent>['run']>;
  expectTypeOf<Run>().toEqualTypeOf<Promise<CompletedResult<Forecast>>>();
  type Paused = ReturnType<InjectedAgent<typeof PausingAgent>['run']>;
  expectTypeOf<Paused>().toEqualTypeOf<Promise<Result<string>>>();
});

test('moduleRef.get of the tokens is typed', () => {
  const _get = (moduleRef: TestingModule) => ({
    agent: moduleRef.get(getAgentToken(WeatherAgent)),
    model: moduleRef.get(getModelToken('default')),
  });
  expectTypeOf<ReturnType<typeof _get>['agent']>().toEqualTypeOf<EngineAgent<User, Forecast>>();
  expectTypeOf<ReturnType<typeof _get>['model']>().toEqualTypeOf<Model>();
  // @ts-expect-error the agent's output is a Forecast, not the default string
  const wrong: EngineAgent<User> = null as unknown as ReturnType<typeof _get>['agent'];
  expect(wrong).toBeNull();
});

test('sseFromRun gives Nest MessageEvents, the result typed from the agent', () => {
  const _stream = (agent: InjectedAgent<typeof WeatherAgent>) =>
    sseFromRun((signal) => agent.runStream('?', { deps: { name: 'Ada' }, signal }));
  expectTypeOf<ReturnType<typeof _stream>>().toEqualTypeOf<
    Observable<RunMessageEvent<RunResultData<Forecast>>>
  >();
  expectTypeOf<ReturnType<typeof _stream>>().toExtend<Observable<MessageEvent>>();
  expect(true).toBe(true);
});
