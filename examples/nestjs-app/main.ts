/**
 * A NestJS app with golem/nestjs: a feature module registering two decorated agents (their
 * constructors get the module's repository from Nest), a controller injecting them with
 * @InjectAgent, a JSON endpoint, an @Sse endpoint, and a human-approval flow whose paused run
 * waits in the run store configured once in GolemModule and is resumed by its id. Starts on a free
 * loopback port, sends requests with fetch, prints what came back, and stops. Offline it runs on
 * the embedded TestModel.
 */
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { parseEventStream } from './sse-client';
import type { AlertsAnswer } from './weather/weather.controller';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest's options are plain objects
  const app = await NestFactory.create(AppModule, { logger: false, abortOnError: false });
  await app.listen(0, '127.0.0.1');
  const base = `${await app.getUrl()}/agents/weather`;
  const post = (path: string, body: unknown): Promise<Response> =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'Ada' },
      body: JSON.stringify(body),
    });
  try {
    const json = await post('', { city: 'Lagos', days: 1 });
    log(`POST /agents/weather -> ${json.status}`);
    log(`  ${await json.text()}`);

    const bad = await post('', { city: '', days: 9, units: 'F' }); // `units` is not in the DTO
    log(`POST /agents/weather (bad body) -> ${bad.status}`);
    log(`  ${await bad.text()}`);

    const sse = await fetch(`${base}/stream?city=Lagos&days=1`, { headers: { 'x-user': 'Ada' } });
    log(`GET /agents/weather/stream -> ${sse.status} ${sse.headers.get('content-type') ?? ''}`);
    const events = parseEventStream(await sse.text());
    log(`  ${events.filter((e) => e.event === 'delta').length} delta events, then:`);
    for (const { event, data } of events.filter((e) => e.event !== 'delta'))
      log(`  event: ${event} ${JSON.stringify(data)}`);

    const paused = (await (await post('/alerts', { city: 'Oslo' })).json()) as AlertsAnswer;
    if (paused.status !== 'pending') throw new Error('expected the run to pause for approval');
    log(`POST /agents/weather/alerts -> pending: ${JSON.stringify(paused.approvals)}`);
    const decisions = paused.approvals.map((call) => ({ callId: call.callId, approved: true }));
    const done = await post(`/alerts/${paused.runId}`, { decisions });
    log(`POST /agents/weather/alerts/:runId (approved) -> ${done.status}`);
    log(`  ${await done.text()}`);
  } finally {
    await app.close();
    log('app closed');
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
