/**
 * docs/guides/providers.md stays in sync with the code: its preset table is the one rendered from
 * OPENAI_PRESETS, and it documents a model string for every known provider.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWN_PROVIDERS } from 'golem/providers/resolve';
import { PRESET_HEADER, presetRows, presetTableMarkdown, readTable } from './preset-table';

const guide = readFileSync(join(__dirname, '../../../../docs/guides/providers.md'), 'utf8');

test('the preset table of the guide is the one generated from OPENAI_PRESETS', () => {
  const [header, separator, ...rows] = readTable(guide);
  const hint = `regenerate it from test/src/providers/resolve/preset-table.ts:\n${presetTableMarkdown()}`;
  expect({ header, hint }).toEqual({ header: PRESET_HEADER, hint });
  expect(separator?.every((cell) => /^:?-{3,}:?$/.test(cell))).toBe(true);
  expect({ rows, hint }).toEqual({ rows: presetRows(), hint });
});

test.each(KNOWN_PROVIDERS.filter((provider) => provider !== 'test'))(
  'the guide shows a model string for %s',
  (provider) => {
    expect(guide).toContain(`\`${provider}:`);
  },
);
