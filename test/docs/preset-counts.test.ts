/**
 * The OpenAI-compatible guide (docs/guides/providers/openai.md) counts and tabulates the presets
 * of `OPENAI_PRESETS`: the counts in its opening paragraph and the rows of its preset table stay
 * those of the code (docs/guides/providers.md's table is checked by
 * test/src/providers/resolve/guide-table.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPENAI_PRESETS, OPENAI_PRESET_NAMES } from 'golem/providers/openai';
import { presetRows } from '../src/providers/resolve/preset-table';

const guide = readFileSync(join(__dirname, '../../docs/guides/providers/openai.md'), 'utf8');
const opening = guide.slice(0, guide.indexOf('```')).replace(/\s+/g, ' ');

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

/** The number written as a word (or digits) right before `noun` in the opening paragraph. */
function countBefore(noun: string): number | undefined {
  const match = new RegExp(`\\b(\\w+) ${noun}`).exec(opening);
  if (match === null) return undefined;
  const word = (match[1] ?? '').toLowerCase();
  return /^\d+$/.test(word) ? Number(word) : WORDS.indexOf(word);
}

/** Presets of hosted services (an https base URL), OpenAI's own included. */
const hosted = OPENAI_PRESET_NAMES.filter((name) =>
  OPENAI_PRESETS[name].baseURL.startsWith('https://'),
);

test('the opening paragraph counts the presets of OPENAI_PRESETS', () => {
  expect({
    presets: countBefore('presets'),
    otherHosted: countBefore('other hosted services'),
  }).toEqual({ presets: OPENAI_PRESET_NAMES.length, otherHosted: hosted.length - 1 });
  // the rest are the local and self-hosted servers the paragraph names
  for (const name of OPENAI_PRESET_NAMES.filter((n) => !hosted.includes(n)))
    expect(opening).toContain(OPENAI_PRESETS[name].label.replace(/ \(.*\)$/, ''));
});

test("the guide's preset table has one row per preset, with the code's base URL and flags", () => {
  const section = guide.slice(guide.indexOf('\n## Presets'));
  const rows = section
    .slice(0, section.indexOf('\n\n', section.indexOf('\n|')))
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  // Preset, Base URL, Tools, Structured output, With tools, Strict tools, Stream usage
  const compared = [0, 2, 4, 5, 6, 7, 8];
  const pick = (cells: readonly string[]) => compared.map((i) => cells[i]);
  expect(rows.map(pick)).toEqual(presetRows().map(pick));
});
