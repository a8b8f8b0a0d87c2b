/**
 * Where the recorded third-party provider traffic lives: `../shared/fixtures/providers` beside
 * the checkout (see its INDEX.md). It is never copied into this repository, so only
 * `npm run test:recorded` reads it; `npm test` runs on the project's own fixtures.
 */
import { join } from 'node:path';

/** The recorded provider fixtures folder, beside the checkout. */
export const RECORDED_PROVIDERS = join(
  __dirname,
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'providers',
);

/** The provider sub-folders the recorded suites read. */
export const RECORDED_DIRS = ['anthropic', 'azure', 'bedrock', 'google', 'openai'] as const;

/** The folder of one provider's recordings. */
export function recordedDir(provider: (typeof RECORDED_DIRS)[number]): string {
  return join(RECORDED_PROVIDERS, provider);
}
