import { ValidationPipe, type INestApplication } from '@nestjs/common';

/** What main.ts and the tests both apply: request bodies are validated against their DTOs. */
export function configureApp<App extends INestApplication>(app: App): App {
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }));
  return app;
}
