import { strict as assert } from 'node:assert';
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
  url = `${await app.getUrl()}/weather`;
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
