import { NestFactory } from '@nestjs/core';
import { configureApp } from './app';
import { AppModule } from './app.module';

async function bootstrap(): Promise<void> {
  const app = configureApp(await NestFactory.create(AppModule));
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 3000));
  const url = await app.getUrl();
  console.log(`listening on ${url}`);
  console.log(
    `try: curl -X POST ${url}/weather -H 'content-type: application/json' -d '{"city":"Lagos"}'`,
  );
}

bootstrap().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
