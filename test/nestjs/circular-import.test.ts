/**
 * An agent class a circular import has not defined yet reaches forFeature as `undefined`: the
 * error says so, whether the class is given bare or in a registration.
 */
import { GolemModule } from 'golem/nestjs';
import type { AgentEntry } from 'golem/nestjs';
import { ConfigError } from 'golem';

function forFeatureError(entries: unknown[]): unknown {
  try {
    GolemModule.forFeature(entries as AgentEntry[]);
  } catch (error) {
    return error;
  }
  return undefined;
}

test.each([
  ['[undefined]', [undefined]],
  ['[null]', [null]],
  ['[{ agent: undefined }]', [{ agent: undefined }]],
])('forFeature(%s) is not-an-agent with the circular-import hint', (_label, entries: unknown[]) => {
  const error = forFeatureError(entries);
  expect(ConfigError.is(error, 'nestjs') && error.reason).toBe('not-an-agent');
  expect((error as Error).message).toMatch(/^GolemModule\.forFeature.*: expected an agent class/);
  expect((error as Error).message).toContain(
    'an undefined class usually means a circular import between files: move the agent to its own file',
  );
});
