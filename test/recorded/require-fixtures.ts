/**
 * Jest global setup of `npm run test:recorded`: the run fails, never skips, when the recorded
 * provider fixtures are not beside the checkout.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RECORDED_DIRS, RECORDED_PROVIDERS } from './fixtures-root';

/** Throws, naming the missing folders and the way out, unless every recorded folder exists. */
export default function requireRecordedFixtures(): void {
  const missing = existsSync(RECORDED_PROVIDERS)
    ? RECORDED_DIRS.map((dir) => join(RECORDED_PROVIDERS, dir)).filter((dir) => !existsSync(dir))
    : [RECORDED_PROVIDERS];
  if (missing.length === 0) return;
  throw new Error(
    `npm run test:recorded needs the recorded provider fixtures beside the checkout, at ` +
      `${RECORDED_PROVIDERS} (../shared/fixtures/providers); missing: ${missing.join(', ')}. ` +
      `Check out the shared folder next to this repository, or run \`npm test\`, which uses ` +
      `only the project's own fixtures.`,
  );
}
