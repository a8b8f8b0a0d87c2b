import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FixtureFormatError } from './errors';
import type { Fixture, FixtureSource } from './fixture-types';
import { parseFixture } from './fixture-validate';

/** The fixture as written to disk: pretty JSON (two-space indent) ending in a newline. */
export function serializeFixture(fixture: Fixture): string {
  return `${JSON.stringify(fixture, null, 2)}\n`;
}

/**
 * Reads and validates a fixture file. A file that is not JSON, has another `golemFixture`
 * version or a malformed field throws `FixtureFormatError` naming the file and field.
 */
export function loadFixture(file: string): Fixture {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new FixtureFormatError(file, '', `cannot be read (${describe(cause)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new FixtureFormatError(file, '', `is not JSON (${describe(cause)})`);
  }
  return parseFixture(value, file);
}

/** Writes `fixture` to `file` (creating its folder), in the {@link serializeFixture} form. */
export function saveFixture(file: string, fixture: Fixture): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, serializeFixture(fixture));
}

/** Resolves fixture sources (objects are validated too) into fixtures, in order. */
export function resolveFixtures(sources: FixtureSource | readonly FixtureSource[]): Fixture[] {
  const list: readonly FixtureSource[] = Array.isArray(sources)
    ? (sources as readonly FixtureSource[])
    : [sources as FixtureSource];
  return list.map((source) =>
    typeof source === 'string' ? loadFixture(source) : parseFixture(source, '(value)'),
  );
}

function describe(cause: unknown): string {
  const message = (cause as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(cause);
}
