/**
 * A NestJS-style service without NestJS: container modules for the features, a controller, an
 * agent provider injected by its typed token, and a node:http adapter serving
 * `POST /forecast` (the typed result as JSON) and `GET|POST /forecast/stream` (the run as
 * server-sent events). Starts on a free loopback port, sends one request of each kind with
 * fetch, prints what came back, and stops. Offline it runs on TestModel.
 */
import { detectDefaultModel } from 'golem/providers/resolve';
import { AppModule, createApp } from './app.module';
import { parseEventStream } from './http/sse';

export async function main(
  log: (line: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const model = detectDefaultModel(env); // 'test' offline, a provider when a key is set
  const app = createApp(AppModule({ defaultModel: model, env }));
  const { port } = await app.server.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  log(`model: ${model}`);
  try {
    const json = await fetch(`${base}/forecast`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'Ada' },
      body: JSON.stringify({ city: 'Lagos', days: 1 }),
    });
    log(`POST /forecast -> ${json.status} ${json.headers.get('content-type') ?? ''}`);
    log(`  ${await json.text()}`);

    const sse = await fetch(`${base}/forecast/stream?city=Lagos&days=1`, {
      headers: { 'x-user': 'Ada' },
    });
    log(`GET /forecast/stream -> ${sse.status} ${sse.headers.get('content-type') ?? ''}`);
    for (const { event, data } of parseEventStream(await sse.text()))
      log(`  event: ${event} ${JSON.stringify(data)}`);
  } finally {
    await app.server.close();
    log('server closed');
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
