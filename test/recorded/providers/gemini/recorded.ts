/** The recorded Google fixtures (../shared, never copied into the repository). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordedDir } from '../../fixtures-root';

/** The recorded wire fixtures, read from ../shared beside the checkout. */
export const SHARED_FIXTURES = recordedDir('google');

/** Text of a recorded fixture file. */
export function sharedText(file: string): string {
  return readFileSync(join(SHARED_FIXTURES, file), 'utf8');
}

/** A recorded fixture file parsed as JSON (the type argument names what the caller expects). */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function sharedJson<T = unknown>(file: string): T {
  return JSON.parse(sharedText(file)) as T;
}
